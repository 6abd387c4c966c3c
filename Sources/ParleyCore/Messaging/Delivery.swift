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
    /// Whether the user has an authenticated connection other than `excluding`, here or on
    /// another server of the cluster: whether an event to the user that leaves `excluding`
    /// out reaches anyone.
    func isOnline(_ user: UserID, excluding: ConnectionToken?) -> Bool
    /// Whether the user has a connection on another server of the same cluster (one database,
    /// one NATS): such a user is already online for everyone, so a first connection here is no
    /// change to announce.
    func isOnlineElsewhere(_ user: UserID) -> Bool
    /// How long a user's last connection here must stay gone before friends are told they
    /// went offline: in a cluster, news of a connection the user just opened on another server
    /// may still be on its way, and announcing at once would tell friends "offline, online".
    var presenceSettleTime: Duration { get }
}

extension Delivery {
    /// A single server has no elsewhere.
    public func isOnlineElsewhere(_ user: UserID) -> Bool { false }
    /// A single server knows every connection at once.
    public var presenceSettleTime: Duration { .zero }
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
    /// Chat states and receipts between XMPP sessions (`ForwardedStanza`); never sent to a
    /// native client.
    public static let forwardedStanza = "xmpp.forward"
    /// A control event (`SignInSessionClosed`): the hub closes the WebSockets of the ended
    /// sign-in session instead of sending it.
    public static let signInSessionClosed = "session.closed"
}

/// A signed-in connection that takes events as typed payloads and renders them itself: a
/// gateway speaking another protocol (XMPP). Native WebSocket connections are not these: the
/// hub encodes an event once into a frame shared by all of them.
public protocol EventReceiver: AnyObject, Sendable {
    /// Identifies the connection (to leave it out of the echo of its own request).
    var token: ConnectionToken { get }
    /// An event for this connection; called on any thread, must not block.
    func receive(event: String, payload: any Encodable & Sendable)
}

/// Where a gateway's connections sign in and out. Online state (and so presence) counts every
/// kind of connection together.
public protocol ConnectionRegistry: Sendable {
    /// Registers a signed-in connection; true if it is the user's first (they came online).
    func add(_ receiver: any EventReceiver, for user: UserID) -> Bool
    /// Forgets a connection; true if it was the user's last (they went offline).
    func remove(_ receiver: any EventReceiver, for user: UserID) -> Bool
}
