import ParleyCore
import ParleyProtocol
import ParleySQL
import ParleyStoreSupport

// `MessageActionWriter` (schema version 10).
extension SQLiteStoreWriter {
    /// A recall (a message with `recalled` set) also asks the writer to scrub the WAL after
    /// the commit (`WALScrubber`): the connection's `secure_delete` zeroes the old text in
    /// the page, but the page's earlier image, with the text, stays in the WAL until it is
    /// checkpointed and truncated.
    func replaceMessage(_ message: Message) throws {
        guard let id = Int64(message.id) else { return }
        let body = try MessageBodyCoding.encode(MessageBodyCoding.Body(message))
        try StoreError.mapping("replaceMessage") {
            try connection.run("UPDATE messages SET text = ?, body = ? WHERE id = ?", message.text, body, id)
        }
        if message.recalled != nil { scrubber.requested = true }
    }

    func hideMessage(_ id: Int64, in conversation: ConversationID, for user: UserID, at time: Int64) throws {
        try StoreError.mapping("hideMessage") {
            try connection.run("""
                INSERT INTO hidden_messages (user_id, conversation_id, message_id, hidden_at) VALUES (?, ?, ?, ?)
                ON CONFLICT DO NOTHING
                """, user.rawValue, conversation.rawValue, id, time)
        }
    }

    func insertPin(_ pin: StoredPin) throws -> Bool {
        try StoreError.mapping("insertPin") {
            try connection.run("""
                INSERT INTO pinned_messages (conversation_id, message_id, pinned_by, pinned_at) VALUES (?, ?, ?, ?)
                ON CONFLICT DO NOTHING
                """, pin.conversationID.rawValue, pin.messageID, pin.pinnedBy.rawValue, pin.pinnedAt) > 0
        }
    }

    func deletePin(of message: Int64, in conversation: ConversationID) throws -> Bool {
        try StoreError.mapping("deletePin") {
            try connection.run("DELETE FROM pinned_messages WHERE conversation_id = ? AND message_id = ?",
                               conversation.rawValue, message) > 0
        }
    }

    func insertMentions(in conversation: ConversationID, seq: Int64, sender: UserID, users: [UserID?]) throws {
        try StoreError.mapping("insertMentions") {
            for user in users {
                try connection.run("INSERT INTO message_mentions (conversation_id, seq, sender_id, user_id) VALUES (?, ?, ?, ?)",
                                   conversation.rawValue, seq, sender.rawValue, user?.rawValue)
            }
        }
    }

    func deleteMentions(in conversation: ConversationID, seq: Int64) throws {
        try StoreError.mapping("deleteMentions") {
            try connection.run("DELETE FROM message_mentions WHERE conversation_id = ? AND seq = ?", conversation.rawValue, seq)
        }
    }
}
