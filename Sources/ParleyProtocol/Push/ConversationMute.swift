/// A user's mute of one conversation, shown in their sessions list: no push notifications
/// for it (until `until`, if given), except messages that mention them when `mentionsOnly`.
public struct ConversationMute: Codable, Sendable, Equatable {
    /// When the mute ends, ms since the epoch; nil: until unmuted.
    public var until: Int64?
    /// Whether mentions of the user still notify.
    public var mentionsOnly: Bool

    public init(until: Int64? = nil, mentionsOnly: Bool = false) {
        self.until = until
        self.mentionsOnly = mentionsOnly
    }

    /// Whether the mute is in force at `time` (ms).
    public func isActive(at time: Int64) -> Bool {
        until.map { $0 > time } ?? true
    }
}
