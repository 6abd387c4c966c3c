import ParleyCore
import ParleyProtocol
import ParleyStoreSupport

// `GovernanceReader` (schema version 16).
extension PostgresStoreQuerying {
    func groupPolicy(of conversation: ConversationID) throws -> GroupPolicy? {
        try queryFirst("groupPolicy", "SELECT join_mode, show_history FROM group_policies WHERE conversation_id = $1",
                       conversation.rawValue) { row in
            GroupPolicy(joinMode: GroupJoinMode(rawValue: try row.string(0)) ?? .open, showHistory: try row.bool(1))
        }
    }

    func ban(in conversation: ConversationID, user: UserID) throws -> StoredBan? {
        try queryFirst("ban(in:user:)", """
            SELECT \(StoredBan.selectColumns) FROM conversation_bans WHERE conversation_id = $1 AND user_id = $2
            """, conversation.rawValue, user.rawValue, row: { try StoredBan(row: $0) })
    }

    func bans(in conversation: ConversationID, limit: Int) throws -> [StoredBan] {
        try query("bans(in:)", """
            SELECT \(StoredBan.selectColumns) FROM conversation_bans WHERE conversation_id = $1
            ORDER BY created_at, user_id LIMIT $2
            """, conversation.rawValue, limit, row: { try StoredBan(row: $0) })
    }

    func mutedUntil(in conversation: ConversationID, user: UserID) throws -> Int64? {
        try queryFirst("mutedUntil", "SELECT until FROM group_mutes WHERE conversation_id = $1 AND user_id = $2",
                       conversation.rawValue, user.rawValue) { try $0.int64(0) }
    }

    func mutes(in conversation: ConversationID) throws -> [UserID: Int64] {
        Dictionary(try query("mutes(in:)", "SELECT user_id, until FROM group_mutes WHERE conversation_id = $1",
                             conversation.rawValue) { (UserID(try $0.int64(0)), try $0.int64(1)) },
                   uniquingKeysWith: { a, _ in a })
    }

    func joinRequest(in conversation: ConversationID, user: UserID) throws -> StoredJoinRequest? {
        try queryFirst("joinRequest", """
            SELECT \(StoredJoinRequest.selectColumns) FROM group_join_requests WHERE conversation_id = $1 AND user_id = $2
            """, conversation.rawValue, user.rawValue, row: { try StoredJoinRequest(row: $0) })
    }

    func joinRequests(in conversation: ConversationID, limit: Int) throws -> [StoredJoinRequest] {
        try query("joinRequests", """
            SELECT \(StoredJoinRequest.selectColumns) FROM group_join_requests WHERE conversation_id = $1
            ORDER BY created_at, user_id LIMIT $2
            """, conversation.rawValue, limit, row: { try StoredJoinRequest(row: $0) })
    }

    func invite(token: String) throws -> StoredInvite? {
        try queryFirst("invite(token:)", "SELECT \(StoredInvite.selectColumns) FROM group_invites WHERE token = $1",
                       token, row: { try StoredInvite(row: $0) })
    }

    func invites(in conversation: ConversationID, limit: Int) throws -> [StoredInvite] {
        try query("invites(in:)", """
            SELECT \(StoredInvite.selectColumns) FROM group_invites
            WHERE conversation_id = $1 AND invitee IS NULL AND NOT revoked
            ORDER BY created_at DESC, token LIMIT $2
            """, conversation.rawValue, limit, row: { try StoredInvite(row: $0) })
    }

    func invitation(in conversation: ConversationID, for user: UserID) throws -> StoredInvite? {
        try queryFirst("invitation(in:for:)", """
            SELECT \(StoredInvite.selectColumns) FROM group_invites
            WHERE conversation_id = $1 AND invitee = $2 AND NOT revoked AND uses = 0
            ORDER BY created_at DESC LIMIT 1
            """, conversation.rawValue, user.rawValue, row: { try StoredInvite(row: $0) })
    }
}
