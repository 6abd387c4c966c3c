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
    /// The recording of a `voice` message.
    public var voice: VoiceAttachment?
    /// The file of a `file` message (its optional caption is `text`).
    public var file: FileAttachment?
    /// What happened, for a `system` message.
    public var system: SystemNotice?
    /// Server time of storing, ms since the epoch.
    public var createdAt: Int64
    /// The message this one answers, with a short excerpt made by the server.
    public var replyTo: ReplyPreview?
    /// The members this message mentions (groups only).
    public var mentions: [UserID]?
    /// Whether it mentions everyone (`@all`, group owners only).
    public var mentionsAll: Bool?
    /// Whether it is a copy of another message (`message.forward`).
    public var forwarded: Bool?
    /// When the text was last edited, ms since the epoch (absent: never edited).
    public var editedAt: Int64?
    /// Present once recalled: the text and image are gone from the server.
    public var recalled: RecallMark?
    /// Reactions, each emoji with who reacted, in the order they first came.
    public var reactions: [Reaction]?
    /// True when the reader hid this message for themselves ("delete for me"): it keeps its
    /// place in the sequence, without its content, and is not shown.
    public var hidden: Bool?
    /// Who of the recipients has played a `voice` message, in the order they did (only those
    /// who share read receipts: docs/protocol.md, "Voice messages").
    public var listenedBy: [UserID]?

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

extension Message {
    /// Whether this message mentions `user` by id or through `@all` (a sender never counts as
    /// mentioned by their own message).
    public func mentions(_ user: UserID) -> Bool {
        guard sender != user, recalled == nil else { return false }
        return mentionsAll == true || mentions?.contains(user) == true
    }

    /// Whether this message, after the reader's marker, counts as unread for `user`
    /// (docs/protocol.md, "Conversation summary"): anything from others, notices included,
    /// but not an action on an earlier message (an edit, recall, reaction, pin, listened
    /// mark) nor a recalled message. The stores count by the same rule.
    public func countsAsUnread(for user: UserID?) -> Bool {
        guard sender == nil || sender != user, recalled == nil else { return false }
        return system?.type.isMessageAction != true
    }

    /// Whether any of the parts beyond the plain text message is present (`MessageJSON`
    /// writes only plain messages by hand).
    public var hasActionState: Bool {
        replyTo != nil || mentions != nil || mentionsAll != nil || forwarded != nil || editedAt != nil || recalled != nil
            || reactions != nil || hidden != nil || listenedBy != nil
    }
}

/// The message a reply answers, as shown above the reply.
public struct ReplyPreview: Codable, Sendable, Equatable {
    /// The quoted message's server id.
    public var messageId: String
    /// Its sequence number (to jump to it), when it still exists.
    public var seq: Int64?
    /// Its sender.
    public var sender: UserID?
    /// Its kind (`image` shows as a picture label).
    public var kind: MessageKind?
    /// The start of its text, at most `--reply-excerpt` characters; absent for an image or a
    /// recalled message.
    public var excerpt: String?
    /// Whether the quoted message was recalled.
    public var recalled: Bool?

    public init(messageId: String, seq: Int64? = nil, sender: UserID? = nil, kind: MessageKind? = nil, excerpt: String? = nil,
                recalled: Bool? = nil) {
        self.messageId = messageId
        self.seq = seq
        self.sender = sender
        self.kind = kind
        self.excerpt = excerpt
        self.recalled = recalled
    }
}

/// Who recalled a message and when.
public struct RecallMark: Codable, Sendable, Equatable {
    public var by: UserID
    public var at: Int64

    public init(by: UserID, at: Int64) {
        self.by = by
        self.at = at
    }
}

/// One emoji on a message and the users who reacted with it, oldest first.
public struct Reaction: Codable, Sendable, Equatable {
    public var emoji: String
    public var users: [UserID]

    public init(emoji: String, users: [UserID]) {
        self.emoji = emoji
        self.users = users
    }
}

/// The kinds of message.
public enum MessageKind: String, Codable, Sendable {
    case text, image, system
    /// Any uploaded file (`POST /v1/files`), with an optional caption in `text`.
    case file
    /// A voice recording (`POST /v1/media`, Opus in WebM or Ogg) with its length and waveform.
    case voice
}

/// An uploaded image shown in a message bubble.
public struct ImageAttachment: Codable, Sendable, Equatable {
    public var mediaId: String
    public var url: String
    public var width: Int
    public var height: Int
    /// A smaller JPEG of a large picture (`/v1/media/<id>/thumbnail`, 320 pixels on the long
    /// side), for showing it in a chat; nil when the picture is small enough, or is a GIF or
    /// WebP, or was sent before thumbnails existed: show `url` then.
    public var thumbnail: String?

    public init(mediaId: String, url: String, width: Int, height: Int, thumbnail: String? = nil) {
        self.mediaId = mediaId
        self.url = url
        self.width = width
        self.height = height
        self.thumbnail = thumbnail
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
    /// For a message action (`message_edited`, `message_recalled`, `reaction_added`, …): the
    /// server id of the message acted on.
    public var messageId: String?
    /// For `reaction_added` / `reaction_removed`: the emoji.
    public var emoji: String?

    public init(type: SystemNoticeType, actor: UserID? = nil, target: UserID? = nil, fields: [String]? = nil, name: String? = nil,
                messageId: String? = nil, emoji: String? = nil) {
        self.type = type
        self.actor = actor
        self.target = target
        self.fields = fields
        self.name = name
        self.messageId = messageId
        self.emoji = emoji
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
    /// The group's last event: its owner (or an administrator) disbanded it.
    case groupDisbanded = "group_disbanded"
    // Message actions: events in the conversation's sequence that change an earlier message
    // (`messageId`); clients apply them to that message rather than show them as lines, and
    // show a recall as "… recalled a message".
    case messageEdited = "message_edited"
    case messageRecalled = "message_recalled"
    case reactionAdded = "reaction_added"
    case reactionRemoved = "reaction_removed"
    case messagePinned = "message_pinned"
    case messageUnpinned = "message_unpinned"
    case messageListened = "message_listened"
    // Group governance (docs/protocol.md, "Group governance"): `actor` acted on `target`.
    case adminAdded = "admin_added"
    case adminRemoved = "admin_removed"
    case memberBanned = "member_banned"
    case memberUnbanned = "member_unbanned"
    case memberMuted = "member_muted"
    case memberUnmuted = "member_unmuted"
    /// `actor` asked to join an `approval` group; admins answer with `group.request.accept`/`decline`.
    case joinRequested = "join_requested"
    /// An admin (`actor`) declined `target`'s join request (an accepted one is `member_joined`).
    case joinDeclined = "join_declined"

    /// Whether this notice reports an action on another message (`messageId`).
    public var isMessageAction: Bool {
        switch self {
        case .messageEdited, .messageRecalled, .reactionAdded, .reactionRemoved, .messagePinned, .messageUnpinned,
             .messageListened: true
        default: false
        }
    }
}
