public import ParleyProtocol

/// A handle for one client connection, so a sender's own connection can be left out of the
/// event that echoes its request (it gets the response instead).
public struct ConnectionToken: Hashable, Sendable {
    public let rawValue: UInt64
    public init(_ rawValue: UInt64) { self.rawValue = rawValue }
}

/// How the core reaches connected clients. The gateway implements it; the core decides who
/// receives what.
public protocol Delivery: Sendable {
    /// Sends the event to every connection of every user in `users`, except `excluding`.
    /// The payload is encoded once for all of them.
    func deliver<Payload: Encodable & Sendable>(event: String, payload: Payload, to users: [UserID], excluding: ConnectionToken?)
    /// Whether the user has at least one authenticated connection.
    func isOnline(_ user: UserID) -> Bool
}

/// The event names of `docs/protocol.md`.
public enum EventName {
    public static let messageNew = "message.new"
    public static let conversationRead = "conversation.read"
    public static let friendRequest = "friend.request"
    public static let friendAdded = "friend.added"
    public static let friendRemoved = "friend.removed"
    public static let presence = "presence"
    public static let meUpdated = "me.updated"
}
