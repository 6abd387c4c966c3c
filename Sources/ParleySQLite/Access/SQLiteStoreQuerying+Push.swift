import ParleyCore
import ParleyProtocol
import ParleySQL
import ParleyStoreSupport

// `StoreReader`: push targets, mutes and the preview setting.
extension SQLiteStoreQuerying {
    func pushTargets(of user: UserID) throws -> [StoredPushTarget] {
        try StoreError.mapping("pushTargets(of:)") {
            try connection.query("SELECT \(StoredPushTarget.selectColumns) FROM push_targets WHERE user_id = ? ORDER BY created_at, id",
                                 user.rawValue, row: StoredPushTarget.init(row:))
        }
    }

    func conversationMutes(of user: UserID) throws -> [ConversationID: ConversationMute] {
        try StoreError.mapping("conversationMutes(of:)") {
            let rows = try connection.query("SELECT conversation_id, until, mentions_only FROM conversation_mutes WHERE user_id = ?",
                                            user.rawValue) { row in
                (ConversationID(try row.int64(0)), ConversationMute(until: try row.optionalInt64(1), mentionsOnly: try row.bool(2)))
            }
            return Dictionary(rows, uniquingKeysWith: { first, _ in first })
        }
    }

    func notificationPreview(of user: UserID) throws -> NotificationPreview? {
        try StoreError.mapping("notificationPreview(of:)") {
            try connection.queryFirst("SELECT preview FROM notification_settings WHERE user_id = ?", user.rawValue) { row in
                NotificationPreview(rawValue: try row.string(0))
            } ?? nil
        }
    }
}
