import Foundation
import ParleyProtocol
import ParleySQL

// The outbox: messages written here and not yet acknowledged. An entry leaves only when the
// server has stored it (its answer, or the message seen in a sync) or when the user discards
// a refused one.
extension LocalStore {
    func enqueue(_ entry: OutboxEntry) throws(ParleyError) {
        try guarded {
            try connection.run("""
                INSERT INTO outbox (client_id, conversation_id, kind, text, media_id, created_at) VALUES (?, ?, ?, ?, ?, ?)
                """, entry.clientId, entry.conversationId.rawValue, entry.kind.rawValue, entry.text, entry.mediaId, entry.createdAt)
        }
    }

    /// Every entry (or those of one conversation), oldest first.
    func outbox(in conversation: ConversationID? = nil) throws(ParleyError) -> [OutboxEntry] {
        try guarded {
            let columns = "client_id, conversation_id, kind, text, media_id, created_at, attempts, failure"
            if let conversation {
                return try connection.query("SELECT \(columns) FROM outbox WHERE conversation_id = ? ORDER BY position",
                                            conversation.rawValue, row: outboxEntry)
            }
            return try connection.query("SELECT \(columns) FROM outbox ORDER BY position", row: outboxEntry)
        }
    }

    /// The oldest entry still to be sent.
    func nextPending() throws(ParleyError) -> OutboxEntry? {
        try guarded {
            try connection.queryFirst("""
                SELECT client_id, conversation_id, kind, text, media_id, created_at, attempts, failure
                FROM outbox WHERE failure IS NULL ORDER BY position LIMIT 1
                """, row: outboxEntry)
        }
    }

    func countAttempt(_ clientId: String) throws(ParleyError) {
        try guarded { try connection.run("UPDATE outbox SET attempts = attempts + 1 WHERE client_id = ?", clientId) }
    }

    /// Removes an entry; true if there was one.
    @discardableResult
    func removeFromOutbox(_ clientId: String) throws(ParleyError) -> Bool {
        try guarded { try connection.run("DELETE FROM outbox WHERE client_id = ?", clientId) > 0 }
    }

    /// Marks an entry refused (nil: pending again, for a retry).
    func setOutboxFailure(_ clientId: String, _ failure: ProtocolError?) throws(ParleyError) {
        try guarded {
            try connection.run("UPDATE outbox SET failure = ? WHERE client_id = ?", try failure.map { try encode($0) }, clientId)
        }
    }

    private func outboxEntry(_ row: SQLiteRow) throws -> OutboxEntry {
        let kind = MessageKind(rawValue: try row.string(2)) ?? .text
        let failure = try row.column(7, as: String?.self).map { try decode(ProtocolError.self, $0) }
        return OutboxEntry(clientId: try row.string(0), conversationId: ConversationID(try row.int64(1)), kind: kind,
                           text: try row.column(3, as: String?.self), mediaId: try row.column(4, as: String?.self),
                           createdAt: try row.int64(5), attempts: try row.int(6), state: failure.map { .failed($0) } ?? .pending)
    }
}
