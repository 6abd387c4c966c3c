import ParleySQL

/// The writer connection's prepared statements for a sent message, prepared on first use and
/// then only reset and bound: the statements of every message go through here rather than
/// through the statement cache's lookup by SQL text and its generic binding.
///
/// None of them has a `RETURNING` clause: SQLite buffers returned rows in a temporary
/// b-tree, which it opens, fills and closes for every statement (in the writer's profile
/// that was a third of SQLite's time per message). The new sequence number is read first
/// and the row id comes from `lastInsertRowID`.
///
/// Owned by the writer thread, like its connection; never used by two threads.
final class SendStatements {
    /// The four statements of a message, in the order they run.
    struct Prepared {
        let lastSeq: SQLiteStatement
        let insert: SQLiteStatement
        let advance: SQLiteStatement
        let markRead: SQLiteStatement
    }

    private let connection: SQLiteConnection
    private var prepared: Prepared?

    init(connection: SQLiteConnection) {
        self.connection = connection
    }

    /// The statements, prepared now if this is the first message.
    func statements() throws -> Prepared {
        if let prepared { return prepared }
        let statements = Prepared(lastSeq: try connection.prepare(Self.lastSeqSQL), insert: try connection.prepare(Self.insertSQL),
                                  advance: try connection.prepare(Self.advanceSQL), markRead: try connection.prepare(Self.markReadSQL))
        prepared = statements
        return statements
    }

    /// The conversation's counter; no row when the conversation does not exist.
    static let lastSeqSQL = "SELECT last_seq FROM conversations WHERE id = ?1"

    /// The message takes the number after `last_seq` without changing the conversation yet:
    /// a refused insert (the client id already used) is undone by SQLite alone, as a
    /// statement, with nothing to roll back. The id is one more than both the largest in the
    /// table and the largest ever deleted, so it is never one a client has seen before
    /// (schema version 7). Every insert into `messages` is this one.
    static let insertSQL = """
        INSERT INTO messages (id, conversation_id, seq, sender_id, client_id, kind, text, body, created_at)
        VALUES ((SELECT max(high, coalesce((SELECT max(id) FROM messages), 0)) + 1 FROM message_id_floor),
                ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
        """

    /// The counter follows the insert. Last activity never moves back (see `appendMessage`).
    static let advanceSQL = """
        UPDATE conversations SET last_seq = ?1, last_activity_at = max(last_activity_at, ?2) WHERE id = ?3
        """

    /// The sender has read their own message, which is the conversation's newest: the marker
    /// needs no bound by `last_seq` here, only never to move back.
    static let markReadSQL = """
        UPDATE members SET read_seq = max(read_seq, ?1) WHERE conversation_id = ?2 AND user_id = ?3
        """
}
