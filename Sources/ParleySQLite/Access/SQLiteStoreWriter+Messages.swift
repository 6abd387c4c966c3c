import ParleyCore
import ParleyProtocol
import ParleySQL
import ParleyStoreSupport

// `MessagingWriter`: appending messages.
extension SQLiteStoreWriter {
    /// The sequence number comes from the conversation's `last_seq` counter, advanced in the
    /// same transaction as the insert: only the writer thread writes, so no two messages can
    /// take the same number, and the write lock is held until commit.
    ///
    /// Both statements run in a savepoint of their own, so that any failure (the client id
    /// already used, an unknown sender) undoes the advance even when the caller catches the
    /// error and carries on in the same `write`: a refused message never leaves a gap.
    ///
    /// The conversation's last activity never moves back, so a clock stepping back cannot
    /// sink a conversation with a new message below older ones in the inbox.
    func appendMessage(_ message: NewMessage) throws -> Message {
        let body = try MessageBodyCoding.encode(image: message.image, system: message.system)
        let clientIDUsed: UniquenessRule = ("client_id", {
            guard let sender = message.sender, let clientID = message.clientID else { return false }
            return try exists("SELECT 1 FROM messages WHERE sender_id = ? AND client_id = ?", sender.rawValue, clientID)
        })
        return try refusingDuplicates("appendMessage", [clientIDUsed]) {
            try connection.savepoint {
                // An UPDATE and a SELECT by primary key, not `UPDATE … RETURNING`: SQLite
                // collects RETURNING rows in a temporary b-tree made for each statement, which
                // cost more than the second lookup of a row already in the page cache.
                let changed = try connection.run("""
                    UPDATE conversations SET last_seq = last_seq + 1, last_activity_at = max(last_activity_at, ?)
                    WHERE id = ?
                    """, message.createdAt, message.conversationID.rawValue)
                guard changed == 1, let seq = try connection.queryFirst("SELECT last_seq FROM conversations WHERE id = ?",
                                                                        message.conversationID.rawValue, row: { try $0.int64(0) }) else {
                    throw StoreError.failure("appendMessage: conversation \(message.conversationID) does not exist")
                }
                try connection.run("""
                    INSERT INTO messages (conversation_id, seq, sender_id, client_id, kind, text, body, created_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """, message.conversationID.rawValue, seq, message.sender?.rawValue, message.clientID,
                    message.kind.rawValue, message.text, body, message.createdAt)
                return Message(id: String(connection.lastInsertRowID), conversationId: message.conversationID, seq: seq,
                               sender: message.sender, clientId: message.clientID, kind: message.kind, text: message.text,
                               image: message.image, system: message.system, createdAt: message.createdAt)
            }
        }
    }
}
