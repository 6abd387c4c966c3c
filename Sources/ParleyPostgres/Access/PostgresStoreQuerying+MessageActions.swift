import ParleyCore
import ParleyProtocol

// `MessageActionReader` (schema version 8).
extension PostgresStoreQuerying {
    func hiddenMessageIDs(of user: UserID, in conversation: ConversationID, among ids: [Int64]) throws -> Set<Int64> {
        guard !ids.isEmpty else { return [] }
        let hidden = try query("hiddenMessageIDs", """
            SELECT message_id FROM hidden_messages
            WHERE user_id = $1 AND conversation_id = $2 AND message_id BETWEEN $3 AND $4
            """, user.rawValue, conversation.rawValue, ids.min() ?? 0, ids.max() ?? 0, row: { try $0.int64(0) })
        return Set(hidden).intersection(ids)
    }

    func pins(in conversation: ConversationID) throws -> [StoredPin] {
        try query("pins(in:)", """
            SELECT message_id, pinned_by, pinned_at FROM pinned_messages
            WHERE conversation_id = $1 ORDER BY pinned_at DESC, message_id DESC
            """, conversation.rawValue, row: { row in
            StoredPin(conversationID: conversation, messageID: try row.int64(0), pinnedBy: UserID(try row.int64(1)),
                      pinnedAt: try row.int64(2))
        })
    }

    func mentionCounts(for user: UserID) throws -> [ConversationID: Int64] {
        let rows = try query("mentionCounts(for:)", """
            SELECT mm.conversation_id, count(*) FROM members m
            JOIN message_mentions mm ON mm.conversation_id = m.conversation_id AND mm.seq > m.read_seq
            WHERE m.user_id = $1 AND (mm.user_id = $1 OR mm.user_id IS NULL) AND mm.sender_id <> $1
            GROUP BY mm.conversation_id
            """, user.rawValue, row: { (ConversationID(try $0.int64(0)), try $0.int64(1)) })
        return Dictionary(rows, uniquingKeysWith: { a, _ in a })
    }
}
