import ParleyCore
import ParleyProtocol
import ParleySQL

// `ReceiptReader` (schema version 14).
extension SQLiteStoreQuerying {
    func deliveredSeq(in conversation: ConversationID, user: UserID) throws -> Int64 {
        try StoreError.mapping("deliveredSeq") {
            try connection.queryFirst("SELECT delivered_seq FROM delivery_markers WHERE conversation_id = ? AND user_id = ?",
                                      conversation.rawValue, user.rawValue) { try $0.int64(0) } ?? 0
        }
    }

    func privacy(of user: UserID) throws -> PrivacySettings {
        try StoreError.mapping("privacy(of:)") {
            try connection.queryFirst("SELECT read_receipts, typing, last_seen FROM privacy_settings WHERE user_id = ?", user.rawValue) { row in
                PrivacySettings(readReceipts: try row.int64(0) != 0, typing: try row.int64(1) != 0,
                                lastSeen: LastSeenVisibility(rawValue: try row.string(2)) ?? .everyone)
            } ?? PrivacySettings()
        }
    }
}
