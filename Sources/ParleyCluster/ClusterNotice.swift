public import ParleyProtocol

/// What a node says on the shared presence subject: who is connected to it. One subject for
/// every notice, so a node's notices reach every other node in the order it sent them.
public struct ClusterNotice: Codable, Sendable, Equatable {
    public enum Kind: String, Codable, Sendable {
        /// A node started (or reconnected): everyone answers with a `beat` at once.
        case hello
        /// The full list of the node's connected users, sent periodically; it replaces what
        /// was known of the node and proves it alive.
        case beat
        /// Users' first connection on the node.
        case online
        /// Users' last connection on the node closed.
        case offline
        /// The node is stopping: forget all of its users now.
        case bye
        /// `users` entered `room` through the node.
        case entered
        /// `users` left `room` (on every node).
        case left
    }

    public var node: String
    public var kind: Kind
    public var users: [UserID]
    /// The room of `entered` and `left`.
    public var room: ConversationID?
    /// A beat's room entries made through the node (replacing what was known of them).
    public var rooms: [RoomOccupants]?

    public init(node: String, kind: Kind, users: [UserID], room: ConversationID? = nil, rooms: [RoomOccupants]? = nil) {
        self.node = node
        self.kind = kind
        self.users = users
        self.room = room
        self.rooms = rooms
    }
}

/// One room's occupants in a beat.
public struct RoomOccupants: Codable, Sendable, Equatable {
    public var room: ConversationID
    public var users: [UserID]

    public init(room: ConversationID, users: [UserID]) {
        self.room = room
        self.users = users
    }
}

/// The first line of an event forwarded to another node; the event's JSON payload follows
/// after a newline, encoded once by the publisher.
struct ClusterEventHeader: Codable, Sendable {
    var node: String
    var event: String
    var users: [UserID]
}
