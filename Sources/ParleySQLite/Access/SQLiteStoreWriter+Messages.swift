import ParleyCore
import ParleyProtocol
import ParleySQL
import ParleyStoreSupport

// `MessagingWriter`: appending messages.
extension SQLiteStoreWriter {
    /// The send path's statements without the read marker: see below. A notice (no sender,
    /// no client id) cannot be refused as a duplicate.
    func appendMessage(_ message: NewMessage) throws -> Message {
        try appendMessage(message, markingReadBySender: false)
    }

    /// The sequence number comes from the conversation's `last_seq` counter, advanced in the
    /// same transaction as the insert: only the writer thread writes, so no two messages can
    /// take the same number, and the write lock is held until commit.
    ///
    /// Three or four prepared statements and no savepoint of its own (the full-text index
    /// takes the message later: `SearchIndexer`): the insert takes its number
    /// from `last_seq` without changing the conversation, so a refused insert changes
    /// nothing (SQLite undoes a failed statement by itself) and never leaves a gap; only
    /// then are the counter and the sender's read marker moved. A failure after the insert
    /// ends the write, whose own rollback undoes the insert (see the protocol).
    ///
    /// The conversation's last activity never moves back, so a clock stepping back cannot
    /// sink a conversation with a new message below older ones in the inbox.
    func appendMessage(_ message: NewMessage, markingReadBySender: Bool) throws -> Message {
        let row = LoggedMessage(conversation: message.conversationID.rawValue, seq: 0, id: 0, sender: message.sender?.rawValue,
                                clientID: message.clientID, kind: message.kind.rawValue, text: message.text,
                                body: try MessageBodyCoding.encode(message), createdAt: message.createdAt,
                                markedReadBySender: markingReadBySender && message.sender != nil)
        let inserted = try insertMessageRow(row, replaying: false)
        return message.stored(id: inserted.id, seq: inserted.seq)
    }

    /// The statements of `appendMessage` for one row. A new message (`replaying` false) gets
    /// the next seq and id, and is told to the message log, if there is one. A row replayed
    /// from the log keeps its own id and seq, which must be the conversation's next.
    func insertMessageRow(_ row: LoggedMessage, replaying: Bool) throws -> (id: Int64, seq: Int64) {
        let changesBefore = connection.totalChanges
        let conversation = row.conversation
        let statements = try StoreError.mapping("appendMessage") { try sending.statements() }
        let seq = try StoreError.mapping("appendMessage") {
            try Self.runToEnd(statements.lastSeq) { lastSeq in
                try lastSeq.bind(integer: conversation, at: 1)
                return try lastSeq.step() ? lastSeq.integer(at: 0) + 1 : nil
            }
        }
        guard let seq else {
            throw StoreError.failure("appendMessage: conversation \(conversation) does not exist")
        }
        if let unapplied = journal?.unapplied, !replaying {
            return try deferRow(row, after: seq - 1, statements: statements, unapplied: unapplied)
        }
        if replaying && seq != row.seq {
            throw StoreError.failure("message log replay: conversation \(conversation) expects seq \(seq), the log has \(row.seq)")
        }
        let insert = { (id: Int64) throws in
            try Self.runToEnd(statements.insert) { statement in
                try statement.bind(integer: conversation, at: 1)
                try statement.bind(integer: seq, at: 2)
                try statement.bind(integer: row.sender, at: 3)
                try statement.bind(text: row.clientID, at: 4)
                try statement.bind(text: row.kind, at: 5)
                try statement.bind(text: row.text, at: 6)
                try statement.bind(text: row.body, at: 7)
                try statement.bind(integer: row.createdAt, at: 8)
                try statement.bind(integer: id, at: 9)
            }
            sending.inserted(id)
        }
        let id: Int64
        do {
            let counted = replaying ? row.id : try sending.messageID()
            do {
                try insert(counted)
                id = counted
            } catch let error as SQLiteError where error.isPrimaryKeyViolation && !replaying {
                // Something besides this connection added messages (a tool): count on from
                // the table, once.
                sending.forgetMessageID()
                let reread = try sending.messageID()
                try insert(reread)
                id = reread
            }
        } catch let error as SQLiteError where error.isUniqueViolation {
            if let sender = row.sender, let clientID = row.clientID,
               try exists("SELECT 1 FROM messages WHERE sender_id = ? AND client_id = ?", sender, clientID) {
                throw StoreError.conflict("client_id")
            }
            throw StoreError.sqlite(error, during: "appendMessage")
        } catch {
            throw StoreError.translating(error, during: "appendMessage")
        }
        try StoreError.mapping("appendMessage") {
            try Self.runToEnd(statements.advance) { advance in
                try advance.bind(integer: seq, at: 1)
                try advance.bind(integer: row.createdAt, at: 2)
                try advance.bind(integer: conversation, at: 3)
            }
            if row.markedReadBySender, let sender = row.sender {
                try Self.runToEnd(statements.markRead) { markRead in
                    try markRead.bind(integer: seq, at: 1)
                    try markRead.bind(integer: conversation, at: 2)
                    try markRead.bind(integer: sender, at: 3)
                }
            }
        }
        // A row left for later carries its recipient's delivered marker (never a new one).
        if replaying, let recipient = row.deliveredTo {
            _ = try moveDeliveredMarker(conversation: conversation, user: recipient, toInserted: seq)
        }
        // The full-text index takes the message later, off the send path (`SearchIndexer`).
        searchIndex?.added()
        if let journal, !replaying {
            var logged = row
            logged.seq = seq
            logged.id = id
            journal.logged(logged, changes: connection.totalChanges - changesBefore)
        }
        return (id, seq)
    }

    /// The send path of `--message-log-apply later`: the row gets its seq (after both
    /// SQLite's `last_seq`, `stored`, which also proved the conversation exists, and the rows
    /// not yet applied) and its id, and is left to the journal, which logs it at commit and
    /// applies it later (`MessageLogJournal`). What the insert would refuse is refused here,
    /// since a row the apply could not insert would stop every later one: an unknown
    /// sender (the foreign key) and a client id the sender used before, in SQLite or in a row
    /// not yet applied (the unique index). The other constraints of `messages` hold by
    /// construction (the kind is an enum, the body JSON we encoded, the seq the next one).
    private func deferRow(_ row: LoggedMessage, after stored: Int64, statements: SendStatements.Prepared,
                          unapplied: UnappliedMessages) throws -> (id: Int64, seq: Int64) {
        if let sender = row.sender {
            let (known, used) = try StoreError.mapping("appendMessage") {
                try Self.runToEnd(statements.senderCheck) { statement in
                    try statement.bind(integer: sender, at: 1)
                    try statement.bind(text: row.clientID, at: 2)
                    guard try statement.step() else { return (false, false) }
                    return (try statement.integer(at: 0) != 0, try statement.integer(at: 1) != 0)
                }
            }
            guard known else { throw StoreError.failure("appendMessage: sender \(sender) does not exist") }
            if let clientID = row.clientID, used || unapplied.holds(sender: sender, clientID: clientID) {
                throw StoreError.conflict("client_id")
            }
        }
        var deferred = row
        deferred.seq = unapplied.nextSeq(in: row.conversation, afterStored: stored)
        deferred.id = try StoreError.mapping("appendMessage") { try sending.messageID() }
        sending.inserted(deferred.id)
        journal?.defer(deferred)
        return (deferred.id, deferred.seq)
    }

    /// Inserts the acknowledged message rows not yet in SQLite into this write's transaction
    /// (`--message-log-apply later`; nothing otherwise): what a read queues first.
    func applyUnapplied() throws {
        try journal?.apply(through: self)
    }

    /// Resets `statement`, binds it and reads what it needs with `body` (stepping it), runs it
    /// to the end and resets it again, also when something throws.
    @discardableResult
    static func runToEnd<T>(_ statement: SQLiteStatement, _ body: (SQLiteStatement) throws -> T) throws -> T {
        statement.reset()
        defer { statement.reset() }
        let result = try body(statement)
        while try statement.step() {}
        return result
    }
}
