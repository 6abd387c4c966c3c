import ParleyCore
import ParleyProtocol

// `ReceiptWriter` (schema version 13).
extension PostgresStoreWriter {
    func markDelivered(conversation: ConversationID, user: UserID, upTo seq: Int64) throws -> Int64 {
        // The member row is the guard: a non-member gets no marker (and no row comes back).
        try queryFirst("markDelivered", """
            INSERT INTO delivery_markers (conversation_id, user_id, delivered_seq)
            SELECT m.conversation_id, m.user_id, greatest(0, least($3::bigint, c.last_seq))
            FROM members m JOIN conversations c ON c.id = m.conversation_id
            WHERE m.conversation_id = $1 AND m.user_id = $2
            ON CONFLICT (conversation_id, user_id) DO UPDATE
            SET delivered_seq = greatest(delivery_markers.delivered_seq, excluded.delivered_seq)
            RETURNING delivered_seq
            """, conversation.rawValue, user.rawValue, seq) { try $0.int64(0) } ?? 0
    }

    func savePrivacy(_ settings: PrivacySettings, for user: UserID) throws {
        try run("savePrivacy", """
            INSERT INTO privacy_settings (user_id, read_receipts, typing, last_seen) VALUES ($1, $2, $3, $4)
            ON CONFLICT (user_id) DO UPDATE SET read_receipts = $2, typing = $3, last_seen = $4
            """, user.rawValue, settings.readReceipts, settings.typing, settings.lastSeen.rawValue)
    }
}
