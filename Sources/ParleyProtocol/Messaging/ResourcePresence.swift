/// One of the user's own Jabber (XMPP) clients came, changed, or went (`presence.resource`):
/// Parley's presence is per user, so the user's native clients learn of the user's other
/// devices on Jabber this way.
public struct ResourcePresence: Codable, Sendable, Equatable {
    /// The Jabber client's resource (the last part of its address, `user@domain/resource`).
    public var resource: String
    /// False when it went (signed out, or sent `unavailable`).
    public var available: Bool
    /// Its `<show>` (`away`, `chat`, `dnd`, `xa`), absent for plain available.
    public var show: String?
    /// Its `<status>` text, if it set one.
    public var status: String?

    public init(resource: String, available: Bool, show: String? = nil, status: String? = nil) {
        self.resource = resource
        self.available = available
        self.show = show
        self.status = status
    }
}
