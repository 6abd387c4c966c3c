/// One message in a conversation.
public struct Message: Codable, Sendable, Equatable {
    /// The server's id (a decimal string, unique across the server).
    public var id: String
    public var conversationId: ConversationID
    /// Position in the conversation: 1, 2, 3… without gaps.
    public var seq: Int64
    /// Who sent it; absent for system notifications.
    public var sender: UserID?
    /// The sender's own id for the send, which makes retries idempotent.
    public var clientId: String?
    public var kind: MessageKind
    /// The text of a `text` message.
    public var text: String?
    /// The picture of an `image` message.
    public var image: ImageAttachment?
    /// What happened, for a `system` message.
    public var system: SystemNotice?
    /// Server time of storing, ms since the epoch.
    public var createdAt: Int64

    public init(id: String, conversationId: ConversationID, seq: Int64, sender: UserID?, clientId: String?, kind: MessageKind,
                text: String? = nil, image: ImageAttachment? = nil, system: SystemNotice? = nil, createdAt: Int64) {
        self.id = id
        self.conversationId = conversationId
        self.seq = seq
        self.sender = sender
        self.clientId = clientId
        self.kind = kind
        self.text = text
        self.image = image
        self.system = system
        self.createdAt = createdAt
    }
}

/// The kinds of message.
public enum MessageKind: String, Codable, Sendable {
    case text, image, system
}

/// An uploaded image shown in a message bubble.
public struct ImageAttachment: Codable, Sendable, Equatable {
    public var mediaId: String
    public var url: String
    public var width: Int
    public var height: Int

    public init(mediaId: String, url: String, width: Int, height: Int) {
        self.mediaId = mediaId
        self.url = url
        self.width = width
        self.height = height
    }
}

/// What a system notification reports. Clients render it in their own language.
public struct SystemNotice: Codable, Sendable, Equatable {
    /// What happened.
    public var type: SystemNoticeType
    /// Who did it.
    public var actor: UserID?
    /// Whom it concerned (the member removed, the new owner…).
    public var target: UserID?
    /// For `info_changed`: which fields changed (`name`, `avatar`, `description`).
    public var fields: [String]?
    /// For `info_changed` of the name, and `group_created` / `room_created`: the name.
    public var name: String?

    public init(type: SystemNoticeType, actor: UserID? = nil, target: UserID? = nil, fields: [String]? = nil, name: String? = nil) {
        self.type = type
        self.actor = actor
        self.target = target
        self.fields = fields
        self.name = name
    }
}

/// The events system notifications report.
public enum SystemNoticeType: String, Codable, Sendable {
    case friendAdded = "friend_added"
    case matched
    case groupCreated = "group_created"
    case memberJoined = "member_joined"
    case memberLeft = "member_left"
    case memberRemoved = "member_removed"
    case ownerChanged = "owner_changed"
    case infoChanged = "info_changed"
    case roomCreated = "room_created"
    case roomEntered = "room_entered"
    case roomLeft = "room_left"
}
