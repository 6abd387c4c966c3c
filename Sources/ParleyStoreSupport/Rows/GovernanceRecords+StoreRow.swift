import ParleyCore
import ParleyProtocol

// The rows of group governance (schema version 16 on SQLite, 15 on PostgreSQL), read alike
// by both stores.

extension StoredBan {
    /// The `conversation_bans` columns `init(row:)` reads, in its order.
    package static let selectColumns = "conversation_id, user_id, banned_by, reason, created_at"

    package init<Row: StoreRow>(row: Row) throws {
        self.init(conversationID: ConversationID(try row.int64(0)), userID: UserID(try row.int64(1)),
                  bannedBy: try row.optionalInt64(2).map(UserID.init), reason: try row.optionalString(3),
                  createdAt: try row.int64(4))
    }
}

extension StoredJoinRequest {
    /// The `group_join_requests` columns `init(row:)` reads, in its order.
    package static let selectColumns = "conversation_id, user_id, created_at"

    package init<Row: StoreRow>(row: Row) throws {
        self.init(conversationID: ConversationID(try row.int64(0)), userID: UserID(try row.int64(1)), createdAt: try row.int64(2))
    }
}

extension StoredInvite {
    /// The `group_invites` columns `init(row:)` reads, in its order.
    package static let selectColumns = "token, conversation_id, created_by, invitee, created_at, expires_at, max_uses, uses, revoked"

    package init<Row: StoreRow>(row: Row) throws {
        self.init(token: try row.string(0), conversationID: ConversationID(try row.int64(1)),
                  createdBy: try row.optionalInt64(2).map(UserID.init), invitee: try row.optionalInt64(3).map(UserID.init),
                  createdAt: try row.int64(4), expiresAt: try row.optionalInt64(5), maxUses: try row.optionalInt(6),
                  uses: try row.int(7), revoked: try row.bool(8))
    }
}
