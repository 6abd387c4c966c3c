/// One row of the sessions list (seed 000): a conversation, its last message and unread count.
public struct ConversationSummary: Codable, Sendable, Equatable {
    public var id: ConversationID
    public var kind: ConversationKind
    /// The other person, for a 1:1 conversation.
    public var peer: UserProfile?
    /// The group's or room's name.
    public var name: String?
    /// The group's or room's avatar.
    public var avatar: String?
    /// The newest message, if any.
    public var lastMessage: Message?
    /// The newest sequence number (0 when empty).
    public var lastSeq: Int64
    /// The last sequence number this user has read.
    public var readSeq: Int64
    /// Messages after `readSeq` (the user's own messages count as read).
    public var unread: Int64
    /// When the conversation last changed, ms since the epoch; the list is sorted on it.
    public var lastActivityAt: Int64
    /// Unread messages that mention this user (by id or `@all`); absent when none.
    public var mentions: Int64?
    /// The user's mute of its notifications, while in force (`conversation.mute`).
    public var mute: ConversationMute?
    /// In a 1:1 conversation, the other person's read marker: this user's messages up to it
    /// are read (absent when either of the two turned read receipts off, or elsewhere).
    public var peerReadSeq: Int64?
    /// In a 1:1 conversation, how far the other person's connections have received it: this
    /// user's messages up to it are delivered.
    public var peerDeliveredSeq: Int64?

    public init(id: ConversationID, kind: ConversationKind, peer: UserProfile? = nil, name: String? = nil, avatar: String? = nil,
                lastMessage: Message? = nil, lastSeq: Int64, readSeq: Int64, unread: Int64, lastActivityAt: Int64,
                mentions: Int64? = nil, mute: ConversationMute? = nil) {
        self.id = id
        self.kind = kind
        self.peer = peer
        self.name = name
        self.avatar = avatar
        self.lastMessage = lastMessage
        self.lastSeq = lastSeq
        self.readSeq = readSeq
        self.unread = unread
        self.lastActivityAt = lastActivityAt
        self.mentions = mentions
        self.mute = mute
    }
}

/// A group's public information.
public struct GroupInfo: Codable, Sendable, Equatable {
    public var id: ConversationID
    public var name: String
    public var avatar: String?
    public var description: String?
    public var ownerId: UserID
    public var memberCount: Int
    public var createdAt: Int64
    /// Who may join, and whether newcomers see earlier history (docs/protocol.md, "Group governance").
    public var joinMode: GroupJoinMode?
    public var showHistory: Bool?
    /// The asking user's role: `owner`, `admin` or `member` (absent when not a member).
    public var role: String?
    /// `group.join` of an `approval` group: the request is filed and waits for an admin.
    public var pending: Bool?

    public init(id: ConversationID, name: String, avatar: String?, description: String?, ownerId: UserID, memberCount: Int, createdAt: Int64) {
        self.id = id
        self.name = name
        self.avatar = avatar
        self.description = description
        self.ownerId = ownerId
        self.memberCount = memberCount
        self.createdAt = createdAt
    }
}

/// A room's public information.
public struct RoomInfo: Codable, Sendable, Equatable {
    public var id: ConversationID
    public var name: String
    public var avatar: String?
    public var description: String?
    /// People in the room now.
    public var occupantCount: Int
    public var createdAt: Int64
    /// Who created the room (and appoints its admins); absent once that account is gone.
    public var ownerId: UserID?

    public init(id: ConversationID, name: String, avatar: String?, description: String?, occupantCount: Int, createdAt: Int64,
                ownerId: UserID? = nil) {
        self.id = id
        self.name = name
        self.avatar = avatar
        self.description = description
        self.occupantCount = occupantCount
        self.createdAt = createdAt
        self.ownerId = ownerId
    }
}

/// A member of a group.
public struct GroupMember: Codable, Sendable, Equatable {
    public var user: UserProfile
    /// `owner`, `admin` or `member`.
    public var role: String
    /// Until when the member may not post (ms), while muted.
    public var mutedUntil: Int64?
    public var joinedAt: Int64

    public init(user: UserProfile, role: String, joinedAt: Int64) {
        self.user = user
        self.role = role
        self.joinedAt = joinedAt
    }
}
