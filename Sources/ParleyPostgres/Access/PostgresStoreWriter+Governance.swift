import ParleyCore
import ParleyProtocol
import ParleyStoreSupport

// `GovernanceWriter` (schema version 16).
extension PostgresStoreWriter {
    func saveGroupPolicy(_ policy: GroupPolicy, of conversation: ConversationID) throws {
        try run("saveGroupPolicy", """
            INSERT INTO group_policies (conversation_id, join_mode, show_history) VALUES ($1, $2, $3)
            ON CONFLICT (conversation_id) DO UPDATE SET join_mode = $2, show_history = $3
            """, conversation.rawValue, policy.joinMode.rawValue, policy.showHistory)
    }

    func saveBan(_ ban: StoredBan) throws {
        try run("saveBan", """
            INSERT INTO conversation_bans (conversation_id, user_id, banned_by, reason, created_at) VALUES ($1, $2, $3, $4, $5)
            ON CONFLICT (conversation_id, user_id) DO UPDATE SET banned_by = $3, reason = $4, created_at = $5
            """, ban.conversationID.rawValue, ban.userID.rawValue, ban.bannedBy?.rawValue, ban.reason, ban.createdAt)
    }

    func deleteBan(in conversation: ConversationID, user: UserID) throws -> Bool {
        try run("deleteBan", "DELETE FROM conversation_bans WHERE conversation_id = $1 AND user_id = $2",
                conversation.rawValue, user.rawValue) > 0
    }

    func saveMute(in conversation: ConversationID, user: UserID, until: Int64) throws {
        try run("saveMute", """
            INSERT INTO group_mutes (conversation_id, user_id, until) VALUES ($1, $2, $3)
            ON CONFLICT (conversation_id, user_id) DO UPDATE SET until = $3
            """, conversation.rawValue, user.rawValue, until)
    }

    func deleteMute(in conversation: ConversationID, user: UserID) throws -> Bool {
        try run("deleteMute", "DELETE FROM group_mutes WHERE conversation_id = $1 AND user_id = $2",
                conversation.rawValue, user.rawValue) > 0
    }

    func saveJoinRequest(_ request: StoredJoinRequest) throws {
        try run("saveJoinRequest", """
            INSERT INTO group_join_requests (conversation_id, user_id, created_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING
            """, request.conversationID.rawValue, request.userID.rawValue, request.createdAt)
    }

    func deleteJoinRequest(in conversation: ConversationID, user: UserID) throws -> Bool {
        try run("deleteJoinRequest", "DELETE FROM group_join_requests WHERE conversation_id = $1 AND user_id = $2",
                conversation.rawValue, user.rawValue) > 0
    }

    func insertInvite(_ invite: StoredInvite) throws {
        try run("insertInvite", """
            INSERT INTO group_invites (token, conversation_id, created_by, invitee, created_at, expires_at, max_uses, uses, revoked)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
            """, invite.token, invite.conversationID.rawValue, invite.createdBy?.rawValue, invite.invitee?.rawValue,
            invite.createdAt, invite.expiresAt, invite.maxUses, invite.uses, invite.revoked)
    }

    func updateInvite(_ invite: StoredInvite) throws {
        try run("updateInvite", "UPDATE group_invites SET uses = $1, revoked = $2 WHERE token = $3",
                invite.uses, invite.revoked, invite.token)
    }
}
