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
                let advanced = try connection.queryFirst("""
                    UPDATE conversations SET last_seq = last_seq + 1, last_activity_at = max(last_activity_at, ?)
                    WHERE id = ?
                    RETURNING last_seq
                    """, message.createdAt, message.conversationID.rawValue) { try $0.int64(0) }
                guard let seq = advanced else {
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
