import ParleyCore
import ParleyProtocol
import ParleyStoreSupport

// `MessageActionWriter` (schema version 8).
extension PostgresStoreWriter {
    /// The row's old version, with a recalled text, stays in the table's pages until
    /// (auto)vacuum reclaims it: PostgreSQL's MVCC keeps it for transactions that may still
    /// see it (docs/operations.md, "Recalled messages").
    func replaceMessage(_ message: Message) throws {
        guard let id = Int64(message.id) else { return }
        let body = try MessageBodyCoding.encode(MessageBodyCoding.Body(message))
        try run("replaceMessage", "UPDATE messages SET text = $1::text, body = $2::jsonb WHERE id = $3", message.text, body, id)
    }

    func hideMessage(_ id: Int64, in conversation: ConversationID, for user: UserID, at time: Int64) throws {
        try run("hideMessage", """
            INSERT INTO hidden_messages (user_id, conversation_id, message_id, hidden_at) VALUES ($1, $2, $3, $4)
            ON CONFLICT DO NOTHING
            """, user.rawValue, conversation.rawValue, id, time)
    }

    func insertPin(_ pin: StoredPin) throws -> Bool {
        try run("insertPin", """
            INSERT INTO pinned_messages (conversation_id, message_id, pinned_by, pinned_at) VALUES ($1, $2, $3, $4)
            ON CONFLICT DO NOTHING
            """, pin.conversationID.rawValue, pin.messageID, pin.pinnedBy.rawValue, pin.pinnedAt) > 0
    }

    func deletePin(of message: Int64, in conversation: ConversationID) throws -> Bool {
        try run("deletePin", "DELETE FROM pinned_messages WHERE conversation_id = $1 AND message_id = $2",
                conversation.rawValue, message) > 0
    }

    func insertMentions(in conversation: ConversationID, seq: Int64, sender: UserID, users: [UserID?]) throws {
        for user in users {
            try run("insertMentions", "INSERT INTO message_mentions (conversation_id, seq, sender_id, user_id) VALUES ($1, $2, $3, $4)",
                    conversation.rawValue, seq, sender.rawValue, user?.rawValue)
        }
    }

    func deleteMentions(in conversation: ConversationID, seq: Int64) throws {
        try run("deleteMentions", "DELETE FROM message_mentions WHERE conversation_id = $1 AND seq = $2", conversation.rawValue, seq)
    }
}
