import ParleyCore
import ParleyProtocol
import ParleySQL

// `ReceiptWriter` (schema version 14).
extension SQLiteStoreWriter {
    func markDelivered(conversation: ConversationID, user: UserID, upTo seq: Int64) throws -> Int64 {
        try tolerated { try moveDeliveredMarker(conversation: conversation.rawValue, user: user.rawValue, upTo: seq) }
    }

    /// `markDelivered(upTo:)` without counting its changes as ones the message log may skip
    /// (its caller does: the apply of rows left for later).
    func moveDeliveredMarker(conversation: Int64, user: Int64, upTo seq: Int64) throws -> Int64 {
        // UPDATE then SELECT rather than `RETURNING` (see `appendMessage`). The member row
        // is the guard: a non-member gets no marker.
        //
        // A marker that exists moves with a plain one-row UPDATE, and only the first one of a
        // member is an INSERT … SELECT: an upsert or an INSERT … SELECT runs in a statement
        // savepoint, and at every savepoint SQLite 3.40's FTS5 writes out the full-text
        // index's pending rows of the transaction — once per message, when every 1:1 send
        // moves its recipient's marker (schema version 21's note).
        try StoreError.mapping("markDelivered") {
            try connection.run("""
                UPDATE delivery_markers
                SET delivered_seq = max(delivered_seq, min(?3, (SELECT last_seq FROM conversations WHERE id = ?1)))
                WHERE conversation_id = ?1 AND user_id = ?2
                """, conversation, user, seq)
            if connection.changes == 0 {
                try connection.run("""
                    INSERT INTO delivery_markers (conversation_id, user_id, delivered_seq)
                    SELECT m.conversation_id, m.user_id, max(0, min(?3, c.last_seq))
                    FROM members m JOIN conversations c ON c.id = m.conversation_id
                    WHERE m.conversation_id = ?1 AND m.user_id = ?2
                    """, conversation, user, seq)
            }
            return try connection.queryFirst("SELECT delivered_seq FROM delivery_markers WHERE conversation_id = ? AND user_id = ?",
                                             conversation, user) { try $0.int64(0) } ?? 0
        }
    }

    /// One prepared `UPDATE` of the marker row, without the conversation's counter or a
    /// `SELECT` after it: `seq` is the newest message, so the marker becomes exactly `seq`.
    /// Only a recipient's first marker takes the general way (its `INSERT … SELECT` checks
    /// membership).
    ///
    /// With `--message-log-apply later`, when the message is a row left for later, nothing
    /// changes in SQLite now: the move goes with the row (`MessageLogJournal.deferDelivered`)
    /// and is made right after its insert, the same way (`moveDeliveredMarker(toInserted:)`).
    /// The answer is the same: `seq` (only a member's marker is left for later).
    func markDelivered(conversation: ConversationID, user: UserID, toAppended seq: Int64) throws -> Int64 {
        if try leaveDeliveredForLater(conversation: conversation.rawValue, user: user.rawValue, seq: seq) { return seq }
        return try tolerated { try moveDeliveredMarker(conversation: conversation.rawValue, user: user.rawValue, toInserted: seq) }
    }

    /// Whether the marker's move went with the row left for later (`--message-log-apply
    /// later`, a member's marker, see `MessageLogJournal.deferDelivered`).
    private func leaveDeliveredForLater(conversation: Int64, user: Int64, seq: Int64) throws -> Bool {
        guard let journal else { return false }
        return try StoreError.mapping("markDelivered") {
            try journal.deferDelivered(conversation: conversation, user: user, seq: seq) {
                try Self.runToEnd(try sending.statements().memberCheck) { member in
                    try member.bind(integer: conversation, at: 1)
                    try member.bind(integer: user, at: 2)
                    return try member.step()
                }
            }
        }
    }

    /// The delivered marker's move to `seq`, the conversation's newest message (see
    /// `markDelivered(toAppended:)`), its changes not counted for the message log.
    func moveDeliveredMarker(conversation: Int64, user: Int64, toInserted seq: Int64) throws -> Int64 {
        let moved = try StoreError.mapping("markDelivered") {
            try Self.runToEnd(try sending.statements().markDelivered) { update in
                try update.bind(integer: seq, at: 1)
                try update.bind(integer: conversation, at: 2)
                try update.bind(integer: user, at: 3)
            }
            return connection.changes > 0
        }
        return moved ? seq : try moveDeliveredMarker(conversation: conversation, user: user, upTo: seq)
    }

    func savePrivacy(_ settings: PrivacySettings, for user: UserID) throws {
        try StoreError.mapping("savePrivacy") {
            try connection.run("""
                INSERT INTO privacy_settings (user_id, read_receipts, typing, last_seen) VALUES (?1, ?2, ?3, ?4)
                ON CONFLICT (user_id) DO UPDATE SET read_receipts = ?2, typing = ?3, last_seen = ?4
                """, user.rawValue, settings.readReceipts ? 1 : 0, settings.typing ? 1 : 0, settings.lastSeen.rawValue)
        }
    }
}
