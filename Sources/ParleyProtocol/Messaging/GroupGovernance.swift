// The shapes of group governance (docs/protocol.md, "Group governance"): roles, who may join,
// invite links, join requests, bans and mutes. They travel together, so they share this file.

/// How people come into a group.
public enum GroupJoinMode: String, Codable, Sendable, CaseIterable {
    /// Anyone may join by name (or a room address).
    case open
    /// `group.join` files a request that an admin accepts or declines.
    case approval
    /// Only through an invite link or a member's invitation.
    case invite
}

/// A group's rules of entry, as `group.get` and `group.update` show them.
public struct GroupPolicy: Codable, Sendable, Equatable {
    public var joinMode: GroupJoinMode
    /// Whether a newcomer sees the messages from before their joining.
    public var showHistory: Bool

    public init(joinMode: GroupJoinMode = .open, showHistory: Bool = false) {
        self.joinMode = joinMode
        self.showHistory = showHistory
    }
}

/// `group.ban` and `room.ban`/`room.kick`: whom, and optionally why.
public struct BanParameters: Codable, Sendable {
    public var conversationId: ConversationID
    public var userId: UserID
    public var reason: String?

    public init(conversationId: ConversationID, userId: UserID, reason: String? = nil) {
        self.conversationId = conversationId
        self.userId = userId
        self.reason = reason
    }
}

/// `group.mute`: the member may read but not post until `until` (ms since the epoch).
public struct MuteMemberParameters: Codable, Sendable {
    public var conversationId: ConversationID
    public var userId: UserID
    public var until: Int64

    public init(conversationId: ConversationID, userId: UserID, until: Int64) {
        self.conversationId = conversationId
        self.userId = userId
        self.until = until
    }
}

/// One entry of a ban list.
public struct ConversationBan: Codable, Sendable, Equatable {
    public var user: UserProfile
    /// Who banned them (absent once that account is gone).
    public var bannedBy: UserID?
    public var reason: String?
    public var createdAt: Int64

    public init(user: UserProfile, bannedBy: UserID?, reason: String?, createdAt: Int64) {
        self.user = user
        self.bannedBy = bannedBy
        self.reason = reason
        self.createdAt = createdAt
    }
}

/// `group.bans`, `room.bans`: oldest first.
public struct BanList: Codable, Sendable, Equatable {
    public var bans: [ConversationBan]
    public init(bans: [ConversationBan]) { self.bans = bans }
}

/// A pending join request of an `approval` group.
public struct JoinRequest: Codable, Sendable, Equatable {
    public var conversationId: ConversationID
    public var user: UserProfile
    public var createdAt: Int64

    public init(conversationId: ConversationID, user: UserProfile, createdAt: Int64) {
        self.conversationId = conversationId
        self.user = user
        self.createdAt = createdAt
    }
}

/// `group.requests`: oldest first.
public struct JoinRequestList: Codable, Sendable, Equatable {
    public var requests: [JoinRequest]
    public init(requests: [JoinRequest]) { self.requests = requests }
}

/// `group.join`'s answer on an `approval` group, and the `group.request.decided` event.
public struct JoinRequestState: Codable, Sendable, Equatable {
    public var conversationId: ConversationID
    /// `pending`, `accepted` or `declined`.
    public var state: String
    /// The group, once accepted.
    public var group: GroupInfo?

    public init(conversationId: ConversationID, state: String, group: GroupInfo? = nil) {
        self.conversationId = conversationId
        self.state = state
        self.group = group
    }
}

/// `group.invite.create`: a link, optionally ending after `expiresIn` seconds or `maxUses` joins.
public struct InviteCreateParameters: Codable, Sendable {
    public var conversationId: ConversationID
    public var expiresIn: Int?
    public var maxUses: Int?

    public init(conversationId: ConversationID, expiresIn: Int? = nil, maxUses: Int? = nil) {
        self.conversationId = conversationId
        self.expiresIn = expiresIn
        self.maxUses = maxUses
    }
}

/// An invite link (its `token` goes in the link).
public struct GroupInvite: Codable, Sendable, Equatable {
    public var token: String
    public var conversationId: ConversationID
    public var createdBy: UserID?
    public var createdAt: Int64
    public var expiresAt: Int64?
    public var maxUses: Int?
    public var uses: Int
    /// For a member's invitation of one friend: that friend (no one else may use it).
    public var invitee: UserID?

    public init(token: String, conversationId: ConversationID, createdBy: UserID?, createdAt: Int64, expiresAt: Int64?,
                maxUses: Int?, uses: Int, invitee: UserID? = nil) {
        self.token = token
        self.conversationId = conversationId
        self.createdBy = createdBy
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.maxUses = maxUses
        self.uses = uses
        self.invitee = invitee
    }
}

/// `group.invites`: the group's links still usable, newest first.
public struct GroupInviteList: Codable, Sendable, Equatable {
    public var invites: [GroupInvite]
    public init(invites: [GroupInvite]) { self.invites = invites }
}

/// `group.invite.revoke`, `group.invite.preview`, `group.invite.join`.
public struct InviteToken: Codable, Sendable {
    public var token: String
    public init(token: String) { self.token = token }
}

/// What a link shows before joining.
public struct GroupPreview: Codable, Sendable, Equatable {
    public var id: ConversationID
    public var name: String
    public var avatar: String?
    public var description: String?
    public var memberCount: Int
    public var joinMode: GroupJoinMode

    public init(id: ConversationID, name: String, avatar: String?, description: String?, memberCount: Int, joinMode: GroupJoinMode) {
        self.id = id
        self.name = name
        self.avatar = avatar
        self.description = description
        self.memberCount = memberCount
        self.joinMode = joinMode
    }
}

/// The `group.invited` event: a member invited the user; `token` joins with `group.invite.join`.
public struct GroupInvitation: Codable, Sendable, Equatable {
    public var group: GroupPreview
    public var inviter: UserID
    public var token: String

    public init(group: GroupPreview, inviter: UserID, token: String) {
        self.group = group
        self.inviter = inviter
        self.token = token
    }
}

/// The `room.kicked` event: the user was put out of a room (and barred, with `banned`).
public struct RoomKick: Codable, Sendable, Equatable {
    public var conversationId: ConversationID
    public var actor: UserID
    public var banned: Bool
    public var reason: String?

    public init(conversationId: ConversationID, actor: UserID, banned: Bool, reason: String?) {
        self.conversationId = conversationId
        self.actor = actor
        self.banned = banned
        self.reason = reason
    }
}
