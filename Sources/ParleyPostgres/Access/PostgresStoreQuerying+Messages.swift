import ParleyCore
import ParleyProtocol

// `MessagingReader`: messages. Every query here is a range or probe of one of the two
// unique indexes of `messages`: `(conversation_id, seq)` and `(sender_id, client_id)`.
extension PostgresStoreQuerying {
    func message(in conversation: ConversationID, seq: Int64) throws -> Message? {
        try queryFirst("message(in:seq:)", "SELECT \(Message.selectColumns) FROM messages WHERE conversation_id = $1 AND seq = $2",
                       conversation.rawValue, seq, row: { try Message(row: $0) })
    }

    /// Reads newest first (so `LIMIT` keeps the ones nearest `seq`) and hands them back
    /// oldest first.
    func messages(in conversation: ConversationID, before seq: Int64?, limit: Int) throws -> [Message] {
        guard limit > 0 else { return [] }
        let newestFirst = try query("messages(in:before:limit:)", """
            SELECT \(Message.selectColumns) FROM messages
            WHERE conversation_id = $1 AND seq < $2
            ORDER BY seq DESC
            LIMIT $3
            """, conversation.rawValue, seq ?? Int64.max, limit, row: { try Message(row: $0) })
        return newestFirst.reversed()
    }

    func messages(in conversation: ConversationID, after seq: Int64, limit: Int) throws -> [Message] {
        guard limit > 0 else { return [] }
        return try query("messages(in:after:limit:)", """
            SELECT \(Message.selectColumns) FROM messages
            WHERE conversation_id = $1 AND seq > $2
            ORDER BY seq
            LIMIT $3
            """, conversation.rawValue, seq, limit, row: { try Message(row: $0) })
    }

    func message(sender: UserID, clientID: String) throws -> Message? {
        try queryFirst("message(sender:clientID:)", "SELECT \(Message.selectColumns) FROM messages WHERE sender_id = $1 AND client_id = $2",
                       sender.rawValue, clientID, row: { try Message(row: $0) })
    }
}
