import ParleyCore
import ParleyProtocol
import ParleySQL
import ParleyStoreSupport

// `GovernanceReader` (schema version 17).
extension SQLiteStoreQuerying {
    func groupPolicy(of conversation: ConversationID) throws -> GroupPolicy? {
        try StoreError.mapping("groupPolicy") {
            try connection.queryFirst("SELECT join_mode, show_history FROM group_policies WHERE conversation_id = ?",
                                      conversation.rawValue) { row in
                GroupPolicy(joinMode: GroupJoinMode(rawValue: try row.string(0)) ?? .open, showHistory: try row.int64(1) != 0)
            }
        }
    }

    func ban(in conversation: ConversationID, user: UserID) throws -> StoredBan? {
        try StoreError.mapping("ban(in:user:)") {
            try connection.queryFirst("SELECT \(StoredBan.selectColumns) FROM conversation_bans WHERE conversation_id = ? AND user_id = ?",
                                      conversation.rawValue, user.rawValue, row: { try StoredBan(row: $0) })
        }
    }

    func bans(in conversation: ConversationID, limit: Int) throws -> [StoredBan] {
        try StoreError.mapping("bans(in:)") {
            try connection.query("""
                SELECT \(StoredBan.selectColumns) FROM conversation_bans WHERE conversation_id = ?
                ORDER BY created_at, user_id LIMIT ?
                """, conversation.rawValue, limit, row: { try StoredBan(row: $0) })
        }
    }

    func mutedUntil(in conversation: ConversationID, user: UserID) throws -> Int64? {
        try StoreError.mapping("mutedUntil") {
            try connection.queryFirst("SELECT until FROM group_mutes WHERE conversation_id = ? AND user_id = ?",
                                      conversation.rawValue, user.rawValue) { try $0.int64(0) }
        }
    }

    func mutes(in conversation: ConversationID) throws -> [UserID: Int64] {
        try StoreError.mapping("mutes(in:)") {
            Dictionary(try connection.query("SELECT user_id, until FROM group_mutes WHERE conversation_id = ?",
                                            conversation.rawValue) { (UserID(try $0.int64(0)), try $0.int64(1)) },
                       uniquingKeysWith: { a, _ in a })
        }
    }

    func joinRequest(in conversation: ConversationID, user: UserID) throws -> StoredJoinRequest? {
        try StoreError.mapping("joinRequest") {
            try connection.queryFirst("""
                SELECT \(StoredJoinRequest.selectColumns) FROM group_join_requests WHERE conversation_id = ? AND user_id = ?
                """, conversation.rawValue, user.rawValue, row: { try StoredJoinRequest(row: $0) })
        }
    }

    func joinRequests(in conversation: ConversationID, limit: Int) throws -> [StoredJoinRequest] {
        try StoreError.mapping("joinRequests") {
            try connection.query("""
                SELECT \(StoredJoinRequest.selectColumns) FROM group_join_requests WHERE conversation_id = ?
                ORDER BY created_at, user_id LIMIT ?
                """, conversation.rawValue, limit, row: { try StoredJoinRequest(row: $0) })
        }
    }

    func invite(token: String) throws -> StoredInvite? {
        try StoreError.mapping("invite(token:)") {
            try connection.queryFirst("SELECT \(StoredInvite.selectColumns) FROM group_invites WHERE token = ?",
                                      token, row: { try StoredInvite(row: $0) })
        }
    }

    func invites(in conversation: ConversationID, limit: Int) throws -> [StoredInvite] {
        try StoreError.mapping("invites(in:)") {
            try connection.query("""
                SELECT \(StoredInvite.selectColumns) FROM group_invites
                WHERE conversation_id = ? AND invitee IS NULL AND revoked = 0
                ORDER BY created_at DESC, token LIMIT ?
                """, conversation.rawValue, limit, row: { try StoredInvite(row: $0) })
        }
    }

    func invitation(in conversation: ConversationID, for user: UserID) throws -> StoredInvite? {
        try StoreError.mapping("invitation(in:for:)") {
            try connection.queryFirst("""
                SELECT \(StoredInvite.selectColumns) FROM group_invites
                WHERE conversation_id = ? AND invitee = ? AND revoked = 0 AND uses = 0
                ORDER BY created_at DESC LIMIT 1
                """, conversation.rawValue, user.rawValue, row: { try StoredInvite(row: $0) })
        }
    }
}
