public import ParleyProtocol

/// What a node says on the shared presence subject: who is connected to it. One subject for
/// every notice, so a node's notices reach every other node in the order it sent them.
public struct ClusterNotice: Codable, Sendable, Equatable {
    public enum Kind: String, Codable, Sendable {
        /// A node started (or reconnected): everyone answers with a `beat` at once.
        case hello
        /// The full list of the node's connected users and its room entries (`rooms`); it
        /// replaces what was known of the node and proves it alive. Sent when a node starts or
        /// reconnects, when asked (`hello`, `ask`) and every `--cluster-full-beat` seconds.
        case beat
        /// A quiet heartbeat: proves the node alive and gives the `digest` of what its `beat`
        /// would carry. A node whose copy has another digest asks for the beat.
        case digest
        /// The sender's copy of `peer` differs from `peer`'s digest: `peer` answers with a `beat`.
        case ask
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
    /// A `digest` heartbeat's fingerprint of the node's users and room entries.
    public var digest: ClusterDigest?
    /// The node an `ask` is for.
    public var peer: String?

    public init(node: String, kind: Kind, users: [UserID], room: ConversationID? = nil, rooms: [RoomOccupants]? = nil,
                digest: ClusterDigest? = nil, peer: String? = nil) {
        self.node = node
        self.kind = kind
        self.users = users
        self.room = room
        self.rooms = rooms
        self.digest = digest
        self.peer = peer
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

/// The first line of what one node hands another for users connected there; the JSON of its
/// payload follows after a newline, encoded once by the publisher: a `ServerEvent`'s `data`
/// (named by the event), a forwarded stanza, or the id of an ended sign-in session.
struct ClusterEventHeader: Codable, Sendable {
    var node: String
    var event: String
    var users: [UserID]

    /// The `event` of a gateway stanza (`ConnectionRegistry.forward`), never a client event's name.
    static let forwardedStanza = "xmpp.forward"
    /// The `event` of an ended sign-in session (`ConnectionRegistry.closeConnections`); the
    /// payload is `{"sessionId": …}`.
    static let sessionClosed = "session.closed"
}

/// The payload of a `session.closed` forward.
struct ClosedSession: Codable, Sendable {
    var sessionId: String
}
