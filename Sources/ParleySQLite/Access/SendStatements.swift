import ParleyCore
import ParleySQL

/// The writer connection's prepared statements for a sent message, prepared on first use and
/// then only reset and bound: the statements of every message go through here rather than
/// through the statement cache's lookup by SQL text and its generic binding.
///
/// None of them has a `RETURNING` clause: SQLite buffers returned rows in a temporary
/// b-tree, which it opens, fills and closes for every statement (in the writer's profile
/// that was a third of SQLite's time per message). The new sequence number is read first
/// and the message id is counted here (`messageID()`).
///
/// Owned by the writer thread, like its connection; never used by two threads.
final class SendStatements {
    /// The statements of a message, in the order they run.
    struct Prepared {
        let lastSeq: SQLiteStatement
        let insert: SQLiteStatement
        let advance: SQLiteStatement
        let markRead: SQLiteStatement
        /// The online recipient's delivered marker (`markDelivered(conversation:user:toAppended:)`).
        let markDelivered: SQLiteStatement
        /// Whether the sender exists and has used the client id (the send path of
        /// `--message-log-apply later`, which inserts nothing that the foreign key or the
        /// unique index could refuse).
        let senderCheck: SQLiteStatement
        /// Whether a user is a member of a conversation (a delivered marker left for later
        /// with its row, which the apply's `INSERT … SELECT` would not give a non-member).
        let memberCheck: SQLiteStatement
    }

    private let connection: SQLiteConnection
    private var prepared: Prepared?
    /// The id the next message gets, once known (see `messageID()`).
    private var nextMessageID: Int64?

    init(connection: SQLiteConnection) {
        self.connection = connection
    }

    /// The statements, prepared now if this is the first message.
    func statements() throws -> Prepared {
        if let prepared { return prepared }
        let statements = Prepared(lastSeq: try connection.prepare(Self.lastSeqSQL), insert: try connection.prepare(Self.insertSQL),
                                  advance: try connection.prepare(Self.advanceSQL), markRead: try connection.prepare(Self.markReadSQL),
                                  markDelivered: try connection.prepare(Self.markDeliveredSQL),
                                  senderCheck: try connection.prepare(Self.senderCheckSQL),
                                  memberCheck: try connection.prepare(Self.memberCheckSQL))
        prepared = statements
        return statements
    }

    /// The id for the next message: one more than both the largest id in `messages` and
    /// the largest ever deleted (`message_id_floor`, schema version 6), so never an id a
    /// client has seen. Read from the database for the first message only; after that this
    /// connection, the only one that adds messages, counts on from the last id it inserted
    /// (`inserted(_:)`), which spares every insert the two lookups. Ids counted past in a
    /// transaction that was then rolled back were never shown to anyone, so skipping them
    /// (or handing them out after a restart) is harmless.
    func messageID() throws -> Int64 {
        if let nextMessageID { return nextMessageID }
        guard let next = try connection.queryFirst(Self.nextMessageIDSQL, row: { try $0.int64(0) }) else {
            throw StoreError.failure("message ids: the table message_id_floor has lost its row")
        }
        nextMessageID = next
        return next
    }

    /// `id` is taken: the next message gets the one after it.
    func inserted(_ id: Int64) {
        nextMessageID = id + 1
    }

    /// Reads the next id from the database again: something else added messages.
    func forgetMessageID() {
        nextMessageID = nil
    }

    static let nextMessageIDSQL = "SELECT max(high, coalesce((SELECT max(id) FROM messages), 0)) + 1 FROM message_id_floor"

    /// The conversation's counter; no row when the conversation does not exist.
    static let lastSeqSQL = "SELECT last_seq FROM conversations WHERE id = ?1"

    /// The message takes the number after `last_seq` without changing the conversation yet:
    /// a refused insert (the client id already used) is undone by SQLite alone, as a
    /// statement, with nothing to roll back. The id (`?9`) comes from `messageID()`.
    static let insertSQL = """
        INSERT INTO messages (id, conversation_id, seq, sender_id, client_id, kind, text, body, created_at)
        VALUES (?9, ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
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

    /// The users row, and the unique index of `(sender_id, client_id)` (no client id: NULL,
    /// never used).
    static let senderCheckSQL = """
        SELECT EXISTS (SELECT 1 FROM users WHERE id = ?1), EXISTS (SELECT 1 FROM messages WHERE sender_id = ?1 AND client_id = ?2)
        """

    /// A member's row: the guard of a recipient's first delivered marker.
    static let memberCheckSQL = "SELECT 1 FROM members WHERE conversation_id = ?1 AND user_id = ?2"

    /// The recipient's delivered marker moves to the message just appended, its
    /// conversation's newest: no bound by `last_seq` to read, only never to move back. A
    /// recipient without a marker row yet gets one from the general `markDelivered`.
    static let markDeliveredSQL = """
        UPDATE delivery_markers SET delivered_seq = max(delivered_seq, ?1) WHERE conversation_id = ?2 AND user_id = ?3
        """
}
