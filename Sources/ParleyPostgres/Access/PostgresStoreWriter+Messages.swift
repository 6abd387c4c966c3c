import ParleyCore
import ParleyProtocol
import ParleyStoreSupport

// `MessagingWriter`: appending messages.
extension PostgresStoreWriter {
    /// One statement, one round trip: advance the conversation's `last_seq` counter and
    /// insert the message with the new number.
    ///
    /// **Gapless on several servers.** The `UPDATE` takes the conversation row's lock, held
    /// until the batch commits, so writers of one conversation take turns whichever server
    /// they run on (writers of different conversations do not wait for each other); each
    /// reads the counter as the previous writer committed it. The statement is atomic: if the
    /// insert fails, the advance is undone with it, so a refused message never leaves a gap.
    ///
    /// **Idempotency.** A client id the sender already used is found by the statement itself
    /// (nothing is advanced or inserted) and reported as `conflict("client_id")`. Should
    /// another server insert the same client id at the same moment, the unique constraint
    /// refuses the second: also `conflict("client_id")`.
    ///
    /// The statement runs in a savepoint of its own, so that a failure (that race, an unknown
    /// sender) leaves the transaction usable: a caller may catch it and go on, as with SQLite.
    ///
    /// The conversation's last activity never moves back, so a clock stepping back cannot
    /// sink a conversation with a new message below older ones in the inbox.
    func appendMessage(_ message: NewMessage) throws -> Message {
        let body = try MessageBodyCoding.encode(message)
        let appended = try isolated("appendMessage") {
            try queryFirst("appendMessage", """
            WITH advanced AS (
                UPDATE conversations
                SET last_seq = last_seq + 1, last_activity_at = greatest(last_activity_at, $7::bigint)
                WHERE id = $1::bigint
                  AND NOT EXISTS (SELECT 1 FROM messages WHERE sender_id = $2::bigint AND client_id = $3::text)
                RETURNING last_seq
            )
            INSERT INTO messages (conversation_id, seq, sender_id, client_id, kind, text, body, created_at)
            SELECT $1::bigint, last_seq, $2::bigint, $3::text, $4::text, $5::text, $6::jsonb, $7::bigint FROM advanced
            RETURNING id, seq
            """, message.conversationID.rawValue, message.sender?.rawValue, message.clientID, message.kind.rawValue,
            message.text, body, message.createdAt) { (id: try $0.int64(0), seq: try $0.int64(1)) }
        }
        guard let appended else {
            if try conversation(id: message.conversationID) == nil {
                throw StoreError.failure("appendMessage: conversation \(message.conversationID) does not exist")
            }
            throw StoreError.conflict("client_id")
        }
        return message.stored(id: appended.id, seq: appended.seq)
    }
}
