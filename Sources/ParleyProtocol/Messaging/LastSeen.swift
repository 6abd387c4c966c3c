/// `user.lastSeen`: whether a user is online, else when they were last seen, as far as their
/// privacy choice lets the asker know (docs/protocol.md, "Last seen"). Both absent: hidden,
/// or never seen.
public struct LastSeen: Codable, Sendable, Equatable {
    public var userId: UserID
    /// True while the user has a connection; absent when hidden.
    public var online: Bool?
    /// When the user's last connection closed, to the minute; absent while online, when
    /// hidden, or when never seen.
    public var lastSeenAt: Int64?

    public init(userId: UserID, online: Bool? = nil, lastSeenAt: Int64? = nil) {
        self.userId = userId
        self.online = online
        self.lastSeenAt = lastSeenAt
    }
}
