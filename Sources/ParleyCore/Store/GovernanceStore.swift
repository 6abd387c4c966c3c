public import ParleyProtocol

/// A user barred from a group or room, by id (a new name does not help).
public struct StoredBan: Sendable, Equatable {
    public var conversationID: ConversationID
    public var userID: UserID
    public var bannedBy: UserID?
    public var reason: String?
    public var createdAt: Int64

    public init(conversationID: ConversationID, userID: UserID, bannedBy: UserID?, reason: String?, createdAt: Int64) {
        self.conversationID = conversationID
        self.userID = userID
        self.bannedBy = bannedBy
        self.reason = reason
        self.createdAt = createdAt
    }
}

/// A request to join an `approval` group.
public struct StoredJoinRequest: Sendable, Equatable {
    public var conversationID: ConversationID
    public var userID: UserID
    public var createdAt: Int64

    public init(conversationID: ConversationID, userID: UserID, createdAt: Int64) {
        self.conversationID = conversationID
        self.userID = userID
        self.createdAt = createdAt
    }
}

/// An invite link, or (with `invitee`) a member's invitation of one user.
public struct StoredInvite: Sendable, Equatable {
    public var token: String
    public var conversationID: ConversationID
    public var createdBy: UserID?
    public var invitee: UserID?
    public var createdAt: Int64
    public var expiresAt: Int64?
    public var maxUses: Int?
    public var uses: Int
    public var revoked: Bool

    public init(token: String, conversationID: ConversationID, createdBy: UserID?, invitee: UserID? = nil, createdAt: Int64,
                expiresAt: Int64? = nil, maxUses: Int? = nil, uses: Int = 0, revoked: Bool = false) {
        self.token = token
        self.conversationID = conversationID
        self.createdBy = createdBy
        self.invitee = invitee
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.maxUses = maxUses
        self.uses = uses
        self.revoked = revoked
    }
}

/// What group governance keeps (part of `StoreReader`): each group's rules of entry, bans
/// (of groups and rooms), mutes, join requests and invites. Lists come oldest first.
public protocol GovernanceReader {
    /// The group's rules; nil for a group created before they existed (open, history shown).
    func groupPolicy(of conversation: ConversationID) throws -> GroupPolicy?
    func ban(in conversation: ConversationID, user: UserID) throws -> StoredBan?
    /// At most `limit` bans of the conversation, oldest first.
    func bans(in conversation: ConversationID, limit: Int) throws -> [StoredBan]
    /// Until when `user` may not post in the group (nil when not muted; may lie in the past).
    func mutedUntil(in conversation: ConversationID, user: UserID) throws -> Int64?
    /// Every mute of the group, by user (the send path keeps them beside the member list).
    func mutes(in conversation: ConversationID) throws -> [UserID: Int64]
    func joinRequest(in conversation: ConversationID, user: UserID) throws -> StoredJoinRequest?
    /// At most `limit` pending requests, oldest first.
    func joinRequests(in conversation: ConversationID, limit: Int) throws -> [StoredJoinRequest]
    func invite(token: String) throws -> StoredInvite?
    /// The group's links (not members' invitations), not revoked, newest first, at most `limit`.
    func invites(in conversation: ConversationID, limit: Int) throws -> [StoredInvite]
    /// A usable invitation of `user` into the group (a member's invitation, not revoked).
    func invitation(in conversation: ConversationID, for user: UserID) throws -> StoredInvite?
}

/// Governance changes (part of `StoreWriter`).
public protocol GovernanceWriter: GovernanceReader {
    func saveGroupPolicy(_ policy: GroupPolicy, of conversation: ConversationID) throws
    /// Inserts or replaces the ban of `ban.userID`.
    func saveBan(_ ban: StoredBan) throws
    /// Returns whether there was one.
    func deleteBan(in conversation: ConversationID, user: UserID) throws -> Bool
    func saveMute(in conversation: ConversationID, user: UserID, until: Int64) throws
    func deleteMute(in conversation: ConversationID, user: UserID) throws -> Bool
    /// Inserts the request (a second one of the same user changes nothing).
    func saveJoinRequest(_ request: StoredJoinRequest) throws
    func deleteJoinRequest(in conversation: ConversationID, user: UserID) throws -> Bool
    /// Throws `StoreError.conflict("token")` for a token in use.
    func insertInvite(_ invite: StoredInvite) throws
    /// Replaces uses and the revoked mark.
    func updateInvite(_ invite: StoredInvite) throws
}
