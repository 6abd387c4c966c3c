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
