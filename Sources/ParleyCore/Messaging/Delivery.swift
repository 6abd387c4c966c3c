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
    /// Sends `event` to every connection of every user in `users`, except `excluding`. The
    /// event is encoded once for all native connections; that encoding of its `data` is
    /// returned (nil when no native connection took it), so the sender's own answer can carry
    /// the same bytes instead of writing them again.
    @discardableResult
    func deliver(_ event: ServerEvent, to users: [UserID], excluding: ConnectionToken?) -> [UInt8]?
    /// `deliver` to the connections of one user (a receipt, a notice for one person), without
    /// an array of one to make.
    @discardableResult
    func deliver(_ event: ServerEvent, to user: UserID, excluding: ConnectionToken?) -> [UInt8]?
    /// `deliver(_:to:excluding:)` to many users that also says which of them have no
    /// connection on this server, found in the same pass over them: a new message's push
    /// checks ask exactly that of its members next (docs/benchmarks.md, (aq)).
    func fanOut(_ event: ServerEvent, to users: [UserID], excluding: ConnectionToken?) -> FanOut
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

/// What a delivery to many users (`Delivery.fanOut`) found on its way.
public struct FanOut: Sendable {
    /// The event's `data` JSON as the delivery encoded it (as `Delivery.deliver` returns it).
    public var encoded: [UInt8]?
    /// The users the event was for who have no connection on this server, in their order
    /// (a user whose only connection was the one left out is not among them); nil when the
    /// delivery does not tell.
    public var unconnectedHere: [UserID]?

    public init(encoded: [UInt8]?, unconnectedHere: [UserID]?) {
        self.encoded = encoded
        self.unconnectedHere = unconnectedHere
    }
}

extension Delivery {
    /// A delivery that does not find out who is connected here only delivers.
    public func fanOut(_ event: ServerEvent, to users: [UserID], excluding: ConnectionToken?) -> FanOut {
        FanOut(encoded: deliver(event, to: users, excluding: excluding), unconnectedHere: nil)
    }
    /// A delivery without a way of its own for one user takes an array of one.
    @discardableResult
    public func deliver(_ event: ServerEvent, to user: UserID, excluding: ConnectionToken?) -> [UInt8]? {
        deliver(event, to: [user], excluding: excluding)
    }
    /// A single server has no elsewhere.
    public func isOnlineElsewhere(_ user: UserID) -> Bool { false }
    /// A single server knows every connection at once.
    public var presenceSettleTime: Duration { .zero }
}

/// A signed-in connection that takes events as typed values and renders them itself: a
/// gateway speaking another protocol (XMPP). Native WebSocket connections are not these: the
/// hub encodes an event once into a frame shared by all of them.
public protocol EventReceiver: AnyObject, Sendable {
    /// Identifies the connection (to leave it out of the echo of its own request).
    var token: ConnectionToken { get }
    /// An event for this connection; called on any thread, must not block.
    func receive(_ event: ServerEvent)
    /// A stanza another gateway session handed this user's sessions (`ConnectionRegistry.forward`).
    func receive(forwarded stanza: ForwardedStanza)
    /// A sign-in session of the user ended (`ConnectionRegistry.closeConnections`): a
    /// connection signed in with it closes. Gateways that sign in with the password itself
    /// close on `AuthenticatedSession.passwordSignIn`. Called on any thread, must not block.
    func signInEnded(_ sessionID: String)
}

extension EventReceiver {
    /// A receiver that signs in with no session stays open.
    public func signInEnded(_ sessionID: String) {}
}

/// Where connections sign in and out, and what acts on connections rather than informs
/// their users: closing the ones of an ended sign-in session, handing a gateway's stanza to
/// another user's gateway sessions. Online state (and so presence) counts every kind of
/// connection together. In a cluster the acts reach the user's connections on every server.
public protocol ConnectionRegistry: Sendable {
    /// Registers a signed-in connection; true if it is the user's first (they came online).
    func add(_ receiver: any EventReceiver, for user: UserID) -> Bool
    /// Forgets a connection; true if it was the user's last (they went offline).
    func remove(_ receiver: any EventReceiver, for user: UserID) -> Bool
    /// Closes every connection of `user` that signed in with the sign-in session `sessionID`
    /// (signed out, or revoked from another device).
    func closeConnections(of user: UserID, signedInWith sessionID: String)
    /// Hands `stanza` to the typed receivers (gateway sessions) of `users`, but `excluding`;
    /// native connections never see it.
    func forward(_ stanza: ForwardedStanza, to users: [UserID], excluding: ConnectionToken?)
}
