// Parameter and result shapes of the messaging operations (docs/protocol.md). They are small
// and only meaningful together, so they share this file.

/// `friend.request`: by username or id, with an optional greeting.
public struct FriendRequestParameters: Codable, Sendable {
    public var username: String?
    public var userId: UserID?
    public var greeting: String?
    public init(username: String? = nil, userId: UserID? = nil, greeting: String? = nil) {
        self.username = username
        self.userId = userId
        self.greeting = greeting
    }
}

/// `friend.request`'s result: the request sent, or the friendship when the other person had
/// already asked.
public struct FriendRequestOutcome: Codable, Sendable {
    public var request: FriendRequest?
    public var friend: Friend?
    public init(request: FriendRequest? = nil, friend: Friend? = nil) {
        self.request = request
        self.friend = friend
    }
}

/// Operations that name a request.
public struct RequestReference: Codable, Sendable {
    public var requestId: String
    public init(requestId: String) { self.requestId = requestId }
}

/// Operations that name a user.
public struct UserReference: Codable, Sendable, Equatable {
    public var userId: UserID
    public init(userId: UserID) { self.userId = userId }
}

/// `friend.list`: one page, oldest friendship first.
public struct FriendList: Codable, Sendable {
    public var friends: [Friend]
    /// Give it as `cursor` for the next page; absent on the last page.
    public var nextCursor: String?
    public init(friends: [Friend], nextCursor: String? = nil) {
        self.friends = friends
        self.nextCursor = nextCursor
    }
}

/// `friend.requests`: without `direction`, the first page of both lists; with it, the page
/// of that list after `cursor`.
public struct FriendRequestsParameters: Codable, Sendable {
    public var direction: FriendRequestDirection?
    public var cursor: String?
    public var limit: Int?
    public init(direction: FriendRequestDirection? = nil, cursor: String? = nil, limit: Int? = nil) {
        self.direction = direction
        self.cursor = cursor
        self.limit = limit
    }
}

/// Which of a user's pending friend requests.
public enum FriendRequestDirection: String, Codable, Sendable {
    case incoming, outgoing
}

/// `friend.requests`.
public struct FriendRequestList: Codable, Sendable {
    /// Requests to this user, oldest first.
    public var incoming: [FriendRequest]
    /// Requests this user sent, oldest first.
    public var outgoing: [FriendRequest]
    /// Cursors of the next pages (with `direction`); absent when a list is complete.
    public var nextIncomingCursor: String?
    public var nextOutgoingCursor: String?
    public init(incoming: [FriendRequest], outgoing: [FriendRequest],
                nextIncomingCursor: String? = nil, nextOutgoingCursor: String? = nil) {
        self.incoming = incoming
        self.outgoing = outgoing
        self.nextIncomingCursor = nextIncomingCursor
        self.nextOutgoingCursor = nextOutgoingCursor
    }
}

/// A list of users (`block.list`, `room.occupants`).
public struct UserList: Codable, Sendable {
    public var users: [UserProfile]
    /// Give it as `cursor` for the next page; absent on the last page.
    public var nextCursor: String?
    public init(users: [UserProfile], nextCursor: String? = nil) {
        self.users = users
        self.nextCursor = nextCursor
    }
}

/// `room.find`: a room by its name (any letter case) or its id; one of the two.
public struct RoomLookup: Codable, Sendable {
    public var name: String?
    public var conversationId: ConversationID?
    public init(name: String? = nil, conversationId: ConversationID? = nil) {
        self.name = name
        self.conversationId = conversationId
    }
}

/// `room.occupants`: a page of a room's occupants.
public struct OccupantsParameters: Codable, Sendable {
    public var conversationId: ConversationID
    public var cursor: String?
    public var limit: Int?
    public init(conversationId: ConversationID, cursor: String? = nil, limit: Int? = nil) {
        self.conversationId = conversationId
        self.cursor = cursor
        self.limit = limit
    }
}

/// A page request: an opaque cursor from the previous page and a size.
public struct PageParameters: Codable, Sendable {
    public var cursor: String?
    public var limit: Int?
    public init(cursor: String? = nil, limit: Int? = nil) {
        self.cursor = cursor
        self.limit = limit
    }
}

/// `discover.deck`.
public struct DiscoverDeck: Codable, Sendable {
    public var cards: [UserProfile]
    public var nextCursor: String?
    public init(cards: [UserProfile], nextCursor: String?) {
        self.cards = cards
        self.nextCursor = nextCursor
    }
}

/// `discover.like`.
public struct LikeOutcome: Codable, Sendable {
    public var matched: Bool
    public var friend: Friend?
    public init(matched: Bool, friend: Friend?) {
        self.matched = matched
        self.friend = friend
    }
}

/// `discover.undo`: the card that comes back, if there was a swipe to undo.
public struct UndoOutcome: Codable, Sendable {
    public var card: UserProfile?
    public init(card: UserProfile?) { self.card = card }
}

/// `group.create`, `room.create`.
public struct CreateParameters: Codable, Sendable {
    public var name: String
    public var description: String?
    public var avatar: String?
    public init(name: String, description: String? = nil, avatar: String? = nil) {
        self.name = name
        self.description = description
        self.avatar = avatar
    }
}

/// `group.join`, `room.enter`: by name.
public struct NameReference: Codable, Sendable {
    public var name: String
    public init(name: String) { self.name = name }
}

/// Operations on one conversation.
public struct ConversationReference: Codable, Sendable, Equatable {
    public var conversationId: ConversationID
    public init(conversationId: ConversationID) { self.conversationId = conversationId }
}

/// `group.members`.
public struct GroupMembersParameters: Codable, Sendable {
    public var conversationId: ConversationID
    public var cursor: String?
    public var limit: Int?
    public init(conversationId: ConversationID, cursor: String? = nil, limit: Int? = nil) {
        self.conversationId = conversationId
        self.cursor = cursor
        self.limit = limit
    }
}

/// `group.members` result.
public struct GroupMemberPage: Codable, Sendable {
    public var members: [GroupMember]
    public var nextCursor: String?
    public init(members: [GroupMember], nextCursor: String?) {
        self.members = members
        self.nextCursor = nextCursor
    }
}

/// `group.update`: any of name, avatar, description (null clears avatar or description),
/// and for admins the join mode and whether newcomers see earlier history.
public struct GroupUpdate: Codable, Sendable {
    public var conversationId: ConversationID
    public var name: FieldPatch<String> = .unchanged
    public var avatar: FieldPatch<String> = .unchanged
    public var description: FieldPatch<String> = .unchanged
    public var joinMode: GroupJoinMode?
    public var showHistory: Bool?

    public init(conversationId: ConversationID, name: FieldPatch<String> = .unchanged, avatar: FieldPatch<String> = .unchanged,
                description: FieldPatch<String> = .unchanged, joinMode: GroupJoinMode? = nil, showHistory: Bool? = nil) {
        self.conversationId = conversationId
        self.name = name
        self.avatar = avatar
        self.description = description
        self.joinMode = joinMode
        self.showHistory = showHistory
    }

    private enum CodingKeys: String, CodingKey { case conversationId, name, avatar, description, joinMode, showHistory }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        conversationId = try container.decode(ConversationID.self, forKey: .conversationId)
        name = try container.decodePatch(String.self, forKey: .name)
        avatar = try container.decodePatch(String.self, forKey: .avatar)
        description = try container.decodePatch(String.self, forKey: .description)
        joinMode = try container.decodeIfPresent(GroupJoinMode.self, forKey: .joinMode)
        showHistory = try container.decodeIfPresent(Bool.self, forKey: .showHistory)
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(conversationId, forKey: .conversationId)
        try container.encodePatch(name, forKey: .name)
        try container.encodePatch(avatar, forKey: .avatar)
        try container.encodePatch(description, forKey: .description)
        try container.encodeIfPresent(joinMode, forKey: .joinMode)
        try container.encodeIfPresent(showHistory, forKey: .showHistory)
    }
}

/// `group.remove`, `group.transfer`.
public struct MemberReference: Codable, Sendable {
    public var conversationId: ConversationID
    public var userId: UserID
    public init(conversationId: ConversationID, userId: UserID) {
        self.conversationId = conversationId
        self.userId = userId
    }
}

/// `room.create` and `room.enter` result: the room and its recent messages.
public struct RoomEntry: Codable, Sendable {
    public var room: RoomInfo
    public var messages: [Message]
    public init(room: RoomInfo, messages: [Message]) {
        self.room = room
        self.messages = messages
    }
}

/// `message.send`.
public struct SendParameters: Codable, Sendable, Equatable {
    public var conversationId: ConversationID
    /// Chosen by the client, unique per sender (e.g. a UUID); a retry with the same value
    /// returns the stored message instead of sending twice.
    public var clientId: String
    public var kind: MessageKind
    public var text: String?
    public var mediaId: String?
    /// A `file` message's name as the sender gives it (the server makes it safe).
    public var name: String?
    /// The server id of the message this one answers (in the same conversation).
    public var replyTo: String?
    /// Members mentioned (groups only; at most `--max-mentions`).
    public var mentions: [UserID]?
    /// `@all`: mentions every member (the group's owner only).
    public var mentionsAll: Bool?
    /// A `voice` message's length in milliseconds, as the recording client measured it.
    public var durationMs: Int?
    /// A `voice` message's loudness preview: `VoiceAttachment.waveformLength` values of
    /// `0...VoiceAttachment.waveformMax`, computed by the recording client.
    public var waveform: [Int]?
    public init(conversationId: ConversationID, clientId: String, kind: MessageKind, text: String? = nil, mediaId: String? = nil,
                replyTo: String? = nil, mentions: [UserID]? = nil, mentionsAll: Bool? = nil, name: String? = nil,
                durationMs: Int? = nil, waveform: [Int]? = nil) {
        self.durationMs = durationMs
        self.waveform = waveform
        self.conversationId = conversationId
        self.clientId = clientId
        self.kind = kind
        self.text = text
        self.mediaId = mediaId
        self.name = name
        self.replyTo = replyTo
        self.mentions = mentions
        self.mentionsAll = mentionsAll
    }
}

/// `message.history`: messages before `before` (exclusive; absent = the newest).
public struct HistoryParameters: Codable, Sendable {
    public var conversationId: ConversationID
    public var before: Int64?
    public var limit: Int?
    /// Also return the action events (edits, recalls, reactions, pins) as the system notices
    /// they are stored as; by default a page holds messages in their current state only.
    public var events: Bool?
    public init(conversationId: ConversationID, before: Int64? = nil, limit: Int? = nil, events: Bool? = nil) {
        self.conversationId = conversationId
        self.before = before
        self.limit = limit
        self.events = events
    }
}

/// A page of messages, oldest first.
public struct MessagePage: Codable, Sendable {
    public var messages: [Message]
    /// Whether older messages exist before the first one.
    public var hasMore: Bool
    /// The conversation's pinned messages, newest pin first; on the newest page only (no
    /// `before`).
    public var pinned: [PinnedMessage]?
    /// In a 1:1 conversation, the other person's read marker (see `ConversationSummary`).
    public var peerReadSeq: Int64?
    /// In a 1:1 conversation, the other person's delivered marker (see `ConversationSummary`).
    public var peerDeliveredSeq: Int64?
    public init(messages: [Message], hasMore: Bool, pinned: [PinnedMessage]? = nil, peerReadSeq: Int64? = nil,
                peerDeliveredSeq: Int64? = nil) {
        self.messages = messages
        self.hasMore = hasMore
        self.pinned = pinned
        self.peerReadSeq = peerReadSeq
        self.peerDeliveredSeq = peerDeliveredSeq
    }
}

/// `conversation.list`.
public struct ConversationList: Codable, Sendable {
    public var conversations: [ConversationSummary]
    public var totalUnread: Int64
    public init(conversations: [ConversationSummary], totalUnread: Int64) {
        self.conversations = conversations
        self.totalUnread = totalUnread
    }
}

/// `conversation.read`: everything up to `seq` is read.
public struct ReadParameters: Codable, Sendable {
    public var conversationId: ConversationID
    public var seq: Int64
    public init(conversationId: ConversationID, seq: Int64) {
        self.conversationId = conversationId
        self.seq = seq
    }
}

/// The `conversation.read` result and event: the new read marker and counts.
public struct ReadState: Codable, Sendable, Equatable {
    public var conversationId: ConversationID
    public var readSeq: Int64
    public var unread: Int64
    public var totalUnread: Int64
    public init(conversationId: ConversationID, readSeq: Int64, unread: Int64, totalUnread: Int64) {
        self.conversationId = conversationId
        self.readSeq = readSeq
        self.unread = unread
        self.totalUnread = totalUnread
    }
}

/// `sync`: the newest sequence the client holds per conversation.
public struct SyncParameters: Codable, Sendable {
    /// Conversation id (decimal string) → the last sequence number the client has.
    public var since: [String: Int64]
    public init(since: [String: Int64]) { self.since = since }
}

/// `sync` result: everything the client missed.
public struct SyncResult: Codable, Sendable {
    /// Every conversation of the user (so the client also learns of new and changed ones).
    public var conversations: [ConversationSummary]
    /// Messages after the client's sequence in each conversation, oldest first per
    /// conversation; at most `perConversationLimit` each.
    public var messages: [Message]
    /// Conversations with more missed messages than were sent: page them with `message.history`.
    public var truncated: [ConversationID]
    /// Friend requests waiting for this user, oldest first: the first page of
    /// `friend.requests`' incoming list.
    public var friendRequests: [FriendRequest]
    /// Present when more requests wait: `friend.requests {direction: "incoming", cursor}`.
    public var friendRequestsCursor: String?
    public var totalUnread: Int64
    /// The current state of earlier messages that action events in `messages` changed (an
    /// edit's text, a recall, reactions), one each: a client replaces what it holds.
    public var updated: [Message]?
    public init(conversations: [ConversationSummary], messages: [Message], truncated: [ConversationID],
                friendRequests: [FriendRequest], friendRequestsCursor: String? = nil, totalUnread: Int64,
                updated: [Message]? = nil) {
        self.conversations = conversations
        self.messages = messages
        self.truncated = truncated
        self.friendRequests = friendRequests
        self.friendRequestsCursor = friendRequestsCursor
        self.totalUnread = totalUnread
        self.updated = updated
    }
}
