import ParleyCore
import ParleyProtocol
import ParleySQL

// `MessagingReader`: messages. Every query here is a range or probe of one of the two
// unique indexes of `messages`: `(conversation_id, seq)` and `(sender_id, client_id)`.
extension SQLiteStoreQuerying {
    func message(in conversation: ConversationID, seq: Int64) throws -> Message? {
        try StoreError.mapping("message(in:seq:)") {
            try connection.queryFirst("SELECT \(Message.selectColumns) FROM messages WHERE conversation_id = ? AND seq = ?",
                                      conversation.rawValue, seq, row: { try Message(row: $0) })
        }
    }

    /// Reads newest first (so `LIMIT` keeps the ones nearest `seq`) and hands them back
    /// oldest first.
    func messages(in conversation: ConversationID, before seq: Int64?, limit: Int) throws -> [Message] {
        guard limit > 0 else { return [] }
        let newestFirst = try StoreError.mapping("messages(in:before:limit:)") {
            try connection.query("""
                SELECT \(Message.selectColumns) FROM messages
                WHERE conversation_id = ? AND seq < ?
                ORDER BY seq DESC
                LIMIT ?
                """, conversation.rawValue, seq ?? Int64.max, limit, row: { try Message(row: $0) })
        }
        return newestFirst.reversed()
    }

    func messages(in conversation: ConversationID, after seq: Int64, limit: Int) throws -> [Message] {
        guard limit > 0 else { return [] }
        return try StoreError.mapping("messages(in:after:limit:)") {
            try connection.query("""
                SELECT \(Message.selectColumns) FROM messages
                WHERE conversation_id = ? AND seq > ?
                ORDER BY seq
                LIMIT ?
                """, conversation.rawValue, seq, limit, row: { try Message(row: $0) })
        }
    }

    func message(sender: UserID, clientID: String) throws -> Message? {
        try StoreError.mapping("message(sender:clientID:)") {
            try connection.queryFirst("SELECT \(Message.selectColumns) FROM messages WHERE sender_id = ? AND client_id = ?",
                                      sender.rawValue, clientID, row: { try Message(row: $0) })
        }
    }
}
