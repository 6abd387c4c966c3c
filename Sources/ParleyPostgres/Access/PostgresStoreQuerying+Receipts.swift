import ParleyCore
import ParleyProtocol

// `ReceiptReader` (schema version 13).
extension PostgresStoreQuerying {
    func deliveredSeq(in conversation: ConversationID, user: UserID) throws -> Int64 {
        try queryFirst("deliveredSeq", "SELECT delivered_seq FROM delivery_markers WHERE conversation_id = $1 AND user_id = $2",
                       conversation.rawValue, user.rawValue) { try $0.int64(0) } ?? 0
    }

    func privacy(of user: UserID) throws -> PrivacySettings {
        try queryFirst("privacy(of:)", "SELECT read_receipts, typing, last_seen FROM privacy_settings WHERE user_id = $1",
                       user.rawValue) { row in
            PrivacySettings(readReceipts: try row.bool(0), typing: try row.bool(1),
                            lastSeen: LastSeenVisibility(rawValue: try row.string(2)) ?? .everyone)
        } ?? PrivacySettings()
    }
}
