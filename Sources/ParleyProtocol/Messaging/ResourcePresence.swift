/// One of a user's resources came, changed, or went (`presence.resource`): a Jabber client
/// (XMPP) or a native Parley device, each signed in separately. Parley's `presence` is per
/// user; this is per resource, so a client can show on which devices a contact (or the user)
/// is online, with each one's `show` and `status`.
public struct ResourcePresence: Codable, Sendable, Equatable {
    /// The resource: a Jabber client's (the last part of its address, `user@domain/resource`),
    /// or a native device's name as Jabber contacts see it (docs/xmpp.md, "Addresses").
    public var resource: String
    /// False when it went (signed out, or sent `unavailable`).
    public var available: Bool
    /// Its `<show>` (`away`, `chat`, `dnd`, `xa`), absent for plain available; a native device
    /// whose app is in the background is `away`.
    public var show: String?
    /// Its `<status>` text, if it set one.
    public var status: String?
    /// Whose resource it is (the user's own, or a friend's); absent from older servers, which
    /// told only of the user's own Jabber clients.
    public var userId: UserID?
    /// `xmpp` for a Jabber client, `parley` for a native device; absent from older servers
    /// (a Jabber client).
    public var client: String?

    /// The value of `client` for a Jabber client.
    public static let xmppClient = "xmpp"
    /// The value of `client` for a native device (web, app, terminal).
    public static let parleyClient = "parley"

    public init(resource: String, available: Bool, show: String? = nil, status: String? = nil, userId: UserID? = nil, client: String? = nil) {
        self.resource = resource
        self.available = available
        self.show = show
        self.status = status
        self.userId = userId
        self.client = client
    }
}

/// `user.resources`: a user's resources available now (the user's own, or a friend's).
public struct ResourceList: Codable, Sendable, Equatable {
    public var resources: [ResourcePresence]

    public init(resources: [ResourcePresence]) {
        self.resources = resources
    }
}
