public import ParleyProtocol

// The stored shapes of the messaging domain: small value types that only make sense
// together with `MessagingStore`, so they share this file.

/// A conversation row: a 1:1 chat (`userA` < `userB`), a group or a room.
public struct StoredConversation: Sendable, Equatable {
    public var id: ConversationID
    public var kind: ConversationKind
    /// Group or room name as chosen; unique per kind without regard to case.
    public var name: String?
    public var avatar: String?
    public var description: String?
    /// The group's owner, or the room's creator.
    public var ownerID: UserID?
    /// The two people of a 1:1 conversation, smaller id first.
    public var userA: UserID?
    public var userB: UserID?
    /// The newest message's sequence number (0 when empty).
    public var lastSeq: Int64
    /// When a message was last added (or the conversation created), ms.
    public var lastActivityAt: Int64
    public var createdAt: Int64

    public init(id: ConversationID, kind: ConversationKind, name: String? = nil, avatar: String? = nil, description: String? = nil,
                ownerID: UserID? = nil, userA: UserID? = nil, userB: UserID? = nil, lastSeq: Int64 = 0,
                lastActivityAt: Int64, createdAt: Int64) {
        self.id = id
        self.kind = kind
        self.name = name
        self.avatar = avatar
        self.description = description
        self.ownerID = ownerID
        self.userA = userA
        self.userB = userB
        self.lastSeq = lastSeq
        self.lastActivityAt = lastActivityAt
        self.createdAt = createdAt
    }
}

/// A conversation before the store gives it an id.
public struct NewConversation: Sendable, Equatable {
    public var kind: ConversationKind
    public var name: String?
    public var avatar: String?
    public var description: String?
    public var ownerID: UserID?
    public var userA: UserID?
    public var userB: UserID?
    public var createdAt: Int64

    public init(kind: ConversationKind, name: String? = nil, avatar: String? = nil, description: String? = nil,
                ownerID: UserID? = nil, userA: UserID? = nil, userB: UserID? = nil, createdAt: Int64) {
        self.kind = kind
        self.name = name
        self.avatar = avatar
        self.description = description
        self.ownerID = ownerID
        self.userA = userA
        self.userB = userB
        self.createdAt = createdAt
    }
}

/// A member of a 1:1 or group conversation, with their read marker. Rooms have no stored
/// members: occupancy lives in memory.
public struct StoredMember: Sendable, Equatable {
    /// A group's owner, its admins (appointed by the owner) and the rest.
    public enum Role: String, Sendable {
        case owner, admin, member

        /// Higher ranks act on lower ones (an admin mutes a member, never another admin).
        public var rank: Int {
            switch self {
            case .owner: 2
            case .admin: 1
            case .member: 0
            }
        }
    }
    public var conversationID: ConversationID
    public var userID: UserID
    public var role: Role
    public var joinedAt: Int64
    /// The last sequence number the member has read.
    public var readSeq: Int64
    /// The member sees only messages after this sequence number: where they joined a group
    /// that hides earlier history from newcomers, else 0.
    public var historyFrom: Int64

    public init(conversationID: ConversationID, userID: UserID, role: Role, joinedAt: Int64, readSeq: Int64, historyFrom: Int64 = 0) {
        self.conversationID = conversationID
        self.userID = userID
        self.role = role
        self.joinedAt = joinedAt
        self.readSeq = readSeq
        self.historyFrom = historyFrom
    }
}

/// One row of a user's sessions list: the conversation, their membership, the last message.
public struct InboxEntry: Sendable, Equatable {
    public var conversation: StoredConversation
    public var member: StoredMember
    public var lastMessage: Message?
    /// What counts as unread after the member's read marker (`MessagingReader.unreadCount`).
    public var unread: Int64

    public init(conversation: StoredConversation, member: StoredMember, lastMessage: Message?, unread: Int64 = 0) {
        self.conversation = conversation
        self.member = member
        self.lastMessage = lastMessage
        self.unread = unread
    }
}

/// A message before the store gives it an id and a sequence number.
public struct NewMessage: Sendable, Equatable {
    public var conversationID: ConversationID
    public var sender: UserID?
    public var clientID: String?
    public var kind: MessageKind
    public var text: String?
    public var image: ImageAttachment?
    public var file: FileAttachment?
    public var system: SystemNotice?
    public var createdAt: Int64
    /// The answered message (its id is what is kept; the excerpt is made when read).
    public var replyTo: ReplyPreview?
    public var mentions: [UserID]?
    public var mentionsAll: Bool?
    public var forwarded: Bool?
    /// The recording of a `voice` message.
    public var voice: VoiceAttachment?

    public init(conversationID: ConversationID, sender: UserID?, clientID: String?, kind: MessageKind, text: String? = nil,
                image: ImageAttachment? = nil, system: SystemNotice? = nil, createdAt: Int64, replyTo: ReplyPreview? = nil,
                mentions: [UserID]? = nil, mentionsAll: Bool? = nil, forwarded: Bool? = nil) {
        self.conversationID = conversationID
        self.sender = sender
        self.clientID = clientID
        self.kind = kind
        self.text = text
        self.image = image
        self.system = system
        self.createdAt = createdAt
        self.replyTo = replyTo
        self.mentions = mentions
        self.mentionsAll = mentionsAll
        self.forwarded = forwarded
    }

    /// The message as stored with its id and sequence number.
    public func stored(id: Int64, seq: Int64) -> Message {
        var message = Message(id: String(id), conversationId: conversationID, seq: seq, sender: sender, clientId: clientID,
                              kind: kind, text: text, image: image, system: system, createdAt: createdAt)
        message.file = file
        message.replyTo = replyTo
        message.mentions = mentions
        message.mentionsAll = mentionsAll
        message.forwarded = forwarded
        message.voice = voice
        return message
    }
}

/// A pending friend request.
public struct StoredFriendRequest: Sendable, Equatable {
    public var id: String
    public var fromID: UserID
    public var toID: UserID
    public var greeting: String?
    public var createdAt: Int64

    public init(id: String, fromID: UserID, toID: UserID, greeting: String?, createdAt: Int64) {
        self.id = id
        self.fromID = fromID
        self.toID = toID
        self.greeting = greeting
        self.createdAt = createdAt
    }
}

/// One side of a friendship (the store keeps both sides).
public struct StoredFriendship: Sendable, Equatable {
    public var userID: UserID
    public var friendID: UserID
    public var conversationID: ConversationID
    public var since: Int64

    public init(userID: UserID, friendID: UserID, conversationID: ConversationID, since: Int64) {
        self.userID = userID
        self.friendID = friendID
        self.conversationID = conversationID
        self.since = since
    }
}

/// A discover swipe.
public struct StoredSwipe: Sendable, Equatable {
    public var userID: UserID
    public var targetID: UserID
    public var liked: Bool
    public var createdAt: Int64

    public init(userID: UserID, targetID: UserID, liked: Bool, createdAt: Int64) {
        self.userID = userID
        self.targetID = targetID
        self.liked = liked
        self.createdAt = createdAt
    }
}
