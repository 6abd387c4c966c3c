public import ParleyProtocol

/// One row of the sessions list, ready to show.
public struct SessionRow: Identifiable, Equatable, Sendable {
    /// The conversation.
    public var id: ConversationID
    /// 1:1, group or room.
    public var kind: ConversationKind
    /// The peer's display name, or the group's or room's name.
    public var title: String
    /// The last message in one line (emoji, "[Image]", a notice's sentence; "Name: …" in groups).
    public var preview: String
    /// When the last activity was: `HH:mm` today, "Yesterday", else the date.
    public var timeLabel: String
    /// Unread messages (shown in bold / as a badge).
    public var unread: Int64
    /// The badge text: the count, "99+", or empty.
    public var badge: String
    /// The peer's avatar, or the group's or room's.
    public var avatar: String?
    /// For 1:1 rows: whether the friend is online.
    public var isOnline: Bool
    /// Sort key, ms since the epoch.
    public var lastActivityAt: Int64
    /// Unread messages that mention the reader (an "@" beside the badge); 0 when none.
    public var mentions: Int64 = 0
    /// Whether the user muted the conversation's notifications (a mute still in force; it
    /// may let mentions through).
    public var isMuted = false
}
