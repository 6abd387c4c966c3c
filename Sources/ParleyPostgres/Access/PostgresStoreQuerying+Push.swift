import ParleyCore
import ParleyProtocol
import ParleyStoreSupport

// `StoreReader`: push targets, mutes and the preview setting.
extension PostgresStoreQuerying {
    func pushTargets(of user: UserID) throws -> [StoredPushTarget] {
        try query("pushTargets(of:)", "SELECT \(StoredPushTarget.selectColumns) FROM push_targets WHERE user_id = $1 ORDER BY created_at, id",
                  user.rawValue, row: StoredPushTarget.init(row:))
    }

    func conversationMutes(of user: UserID) throws -> [ConversationID: ConversationMute] {
        let rows = try query("conversationMutes(of:)", "SELECT conversation_id, until, mentions_only FROM conversation_mutes WHERE user_id = $1",
                             user.rawValue) { row in
            (ConversationID(try row.int64(0)), ConversationMute(until: try row.optionalInt64(1), mentionsOnly: try row.bool(2)))
        }
        return Dictionary(rows, uniquingKeysWith: { first, _ in first })
    }

    func notificationPreview(of user: UserID) throws -> NotificationPreview? {
        try queryFirst("notificationPreview(of:)", "SELECT preview FROM notification_settings WHERE user_id = $1", user.rawValue) { row in
            NotificationPreview(rawValue: try row.string(0))
        } ?? nil
    }
}
