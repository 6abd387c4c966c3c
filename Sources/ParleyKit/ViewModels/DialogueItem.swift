public import ParleyProtocol

/// One thing in a dialogue: a chat message (a bubble) or a system notification (centred and
/// grey, apart from the bubbles).
public enum DialogueItem: Identifiable, Equatable, Sendable {
    /// A chat message from someone (or the reader).
    case message(Bubble)
    /// A system notification.
    case notice(Notice)

    /// A chat message.
    public struct Bubble: Identifiable, Equatable, Sendable {
        /// The server's message id.
        public var id: String
        /// Its place in the conversation.
        public var seq: Int64
        /// Who sent it.
        public var sender: UserID?
        /// Their display name (`ID: <id>` until the profile is known).
        public var senderName: String
        /// Whether the reader sent it (right-aligned, accent colour).
        public var isSelf: Bool
        /// The text with smileys turned into emoji, or "[Image]".
        public var text: String
        /// The picture of an image message.
        public var image: ImageAttachment?
        /// The file of a file message: its name, size and sniffed type (`FileSizeText` reads
        /// the size), and the link to download it.
        public var file: FileAttachment?
        /// The recording of a voice message: its link, length (`durationMs`) and waveform.
        public var voice: VoiceAttachment?
        /// How many recipients played this voice note (shown to its sender: "Listened" in a
        /// 1:1, the count in a group); only those who share read receipts are counted.
        public var listenedCount = 0
        /// Whether the reader played this voice note (no unplayed dot); true for their own.
        public var isListened = true
        /// The seed's label: `HH:mm:ss` under four hours old, else `yyyy-MM-dd HH:mm:ss`.
        public var timeLabel: String
        /// Server time, ms since the epoch.
        public var createdAt: Int64
        /// Edited after sending (shows "edited").
        public var isEdited = false
        /// A copy forwarded from another conversation.
        public var isForwarded = false
        /// The quoted message of a reply, shown above the bubble.
        public var reply: Quote?
        /// Emoji with who reacted.
        public var reactions: [Reaction] = []
        /// Whether it mentions the reader (highlighted).
        public var mentionsMe = false
    }

    /// A reply's quoted message: where to jump, and "Name: excerpt".
    public struct Quote: Equatable, Sendable {
        public var messageId: String
        public var seq: Int64?
        public var text: String
    }

    /// A system notification.
    public struct Notice: Identifiable, Equatable, Sendable {
        /// The server's message id.
        public var id: String
        /// Its place in the conversation.
        public var seq: Int64
        /// The sentence, in the reader's language.
        public var text: String
        /// As for bubbles.
        public var timeLabel: String
    }

    /// The message id.
    public var id: String {
        switch self {
        case .message(let bubble): return bubble.id
        case .notice(let notice): return notice.id
        }
    }

    /// The message's seq.
    public var seq: Int64 {
        switch self {
        case .message(let bubble): return bubble.seq
        case .notice(let notice): return notice.seq
        }
    }
}
