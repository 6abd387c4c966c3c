import Glibc
import ParleyCore
import ParleyLog
import ParleySQL

/// Recovery of the message log at open, before the store serves anything: every row the
/// log holds past a conversation's `last_seq` was synced to the log but lost by SQLite (a
/// power cut before the WAL reached the disk, or a commit that failed after the append),
/// and is inserted again through the send path's statements (`insertMessageRow`), so the
/// search index, the counter and the sender's read marker follow as they did the first
/// time. Rows at or below `last_seq` are already there and are skipped, so replaying twice
/// inserts nothing twice; a row that does not continue its conversation (the log lost rows
/// SQLite lacks too) stops the open rather than leave a gap.
///
/// With `--message-log-apply later` SQLite may also be *ahead* of the log: the writer commits
/// before the `message-log` thread syncs, and may apply a row in between (or the sync
/// failed), so a kill leaves rows in SQLite the log lacks. Nobody was told about them, but
/// the log would refuse the conversation's next seq: those rows are appended to the log
/// (`catchUp`) so it continues every conversation from SQLite's last seq.
///
/// The replay commits at `synchronous = FULL`, then a checkpoint moves everything into the
/// database file, after which the log's complete segments are deleted.
enum MessageLogReplay {
    /// Rows read from the log at a time.
    private static let page = 1_024

    /// Opens the log of `settings` (taking its lock), replays it into the database of
    /// `connection` (the writer connection, at `synchronous = FULL`, no thread started yet)
    /// and returns the log, its lock and the rows replayed.
    static func open(_ settings: MessageLogSettings, connection: SQLiteConnection) throws -> (SegmentLog, DirectoryLock, Int) {
        if mkdir(settings.directory, 0o700) != 0 && errno != EEXIST {
            throw StoreError.failure("message log: mkdir \(settings.directory): errno \(errno)")
        }
        let lock = try DirectoryLock(directory: settings.directory)
        let log: SegmentLog
        do {
            log = try SegmentLog(directory: settings.directory,
                                 options: MessageLogOptions(maxPayloadBytes: settings.maxRecordBytes, segmentBytes: settings.segmentBytes,
                                                            startsAnywhere: true))
        } catch {
            throw StoreError.failure("message log: open \(settings.directory): \(error)")
        }
        let writer = SQLiteStoreWriter(connection: connection, sending: SendStatements(connection: connection), scrubber: WALScrubber(),
                                       journal: nil, searchIndex: nil)
        let replayed = try replay(log, into: writer)
        // Before segments go: the log's checks know the seqs of the records it opened with.
        try catchUp(log, from: connection)
        if MessageLogJournal.checkpoint(connection, waitingForReaders: true) {
            do {
                try log.dropCompleteSegments()
                try log.checkpoint()
            } catch {
                throw StoreError.failure("message log: \(error)")
            }
        }
        return (log, lock, replayed)
    }

    /// Appends to `log` the rows SQLite has past the last record of each conversation the log
    /// knows (see above); returns how many. A conversation whose rows past it are not
    /// gapless (deleted since) cannot be continued and stops the open.
    @discardableResult
    static func catchUp(_ log: SegmentLog, from connection: SQLiteConnection) throws -> Int {
        var appended = 0
        do {
            for conversation in try log.conversations() {
                let logged = Int64(bitPattern: try log.lastSeq(of: conversation))
                let rows = try connection.query(
                    "SELECT id, seq, sender_id, client_id, kind, text, body, created_at FROM messages WHERE conversation_id = ? AND seq > ? ORDER BY seq",
                    Int64(bitPattern: conversation), logged
                ) { row in
                    LoggedMessage(conversation: Int64(bitPattern: conversation), seq: try row.int64(1), id: try row.int64(0),
                                  sender: try row.column(2, as: Int64?.self), clientID: try row.column(3, as: String?.self),
                                  kind: try row.string(4), text: try row.column(5, as: String?.self),
                                  body: try row.column(6, as: String?.self), createdAt: try row.int64(7), markedReadBySender: false)
                }
                guard !rows.isEmpty else { continue }
                try log.append(rows.map(\.record))
                appended += rows.count
            }
        } catch let error as LogError {
            throw StoreError.failure("message log: catching up with SQLite: \(error)")
        }
        return appended
    }

    /// Inserts what `log` holds past each conversation's `last_seq`, in one transaction;
    /// returns the rows inserted.
    static func replay(_ log: SegmentLog, into writer: SQLiteStoreWriter) throws -> Int {
        let connection = writer.connection
        var replayed = 0
        do {
            try connection.transaction(kind: .immediate) {
                for conversation in try log.conversations() {
                    // A conversation deleted since took its messages with it.
                    guard var after = try connection.queryFirst("SELECT last_seq FROM conversations WHERE id = ?",
                                                                Int64(bitPattern: conversation), row: { try $0.int64(0) })
                    else { continue }
                    while true {
                        let records = try log.records(of: conversation, after: UInt64(after), limit: page)
                        guard !records.isEmpty else { break }
                        for record in records {
                            guard let row = LoggedMessage(record: record) else {
                                throw StoreError.failure("message log: conversation \(conversation) seq \(record.seq) is not a message row")
                            }
                            after = try writer.insertMessageRow(row, replaying: true).seq
                            replayed += 1
                        }
                    }
                }
            }
        } catch let error as LogError {
            throw StoreError.failure("message log: \(error)")
        }
        // The ids were the log's: the next new message reads the table's.
        writer.sending.forgetMessageID()
        return replayed
    }
}
