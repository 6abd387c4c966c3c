import Glibc
import ParleyCore
import ParleyLog
import ParleySQL

/// The writer thread's side of the message log (`--message-log segment`): the message rows
/// a transaction inserted, appended to the log and synced *before* its `COMMIT`, which then
/// runs without a sync of its own (the connection is at `synchronous = NORMAL`).
///
/// **Which transactions need no sync of SQLite's own.** Those whose changes are all message
/// inserts (with what the insert statements move: the conversation's counter, the search
/// index, the sender's read marker) and delivered/read marker moves. The first are in the
/// log and replayed after a crash; a marker move lost to a power cut (a kill -9 loses
/// nothing: the commit is in the WAL file, in the page cache) leaves a marker lower than it
/// was, which the next move puts right, since markers only move forward. Every other
/// transaction has its WAL file synced after the commit (`fdatasync`), as
/// `synchronous = FULL` would, and only then does anyone hear back.
///
/// Changes are told apart by SQLite's change counter: the statements of inserts and marker
/// moves report theirs here (`tolerate`, `logged`), and a transaction that changed more
/// than that changed something else.
///
/// **Retention.** After a commit, once a segment is complete, a checkpoint copies the WAL
/// into the database file and syncs it; when it got everything, every record of the
/// complete segments is durable in SQLite and those segments are deleted.
///
/// **Apply later** (`--message-log-apply later`, `unapplied` set). The send path inserts
/// nothing: it hands out the seq and id and leaves the row here (`defer`), with the online
/// recipient's delivered marker of a 1:1 send (`deferDelivered`), so a transaction of plain
/// sends changes nothing in SQLite (no WAL frames, a `COMMIT` of a read-only transaction);
/// the commit hands the rows to the `message-log` thread (`MessageLogSyncer`) with the
/// answers of the batch's callers, and it syncs them and acknowledges them with no row in
/// SQLite while the writer goes on with its next batch. The rows are applied (inserted
/// through `insertMessageRow`, as a replay would, markers with them) by the writer's upkeep
/// in larger transactions (`MessageLogApplier`), and before anything could read `messages`:
/// on the writer, before any statement other than the send path's prepared ones
/// (`SQLiteConnection.beforeStatement` calls `apply`); a reader first queues a write that
/// applies them (`SQLiteStore.read`). An applied row's changes are tolerated like a
/// marker's: the row is in the log already, or on its way there, in which case the commit
/// syncs the WAL (`prepareCommit`).
///
/// Owned by the writer thread, like its connection; never used by two threads.
final class MessageLogJournal {
    let log: SegmentLog
    private let settings: MessageLogSettings
    private let walPath: String
    /// The rows of the open transaction, logged at its commit.
    private var pending: [LoggedMessage] = []
    /// Where each open savepoint of an isolated write began in `pending`.
    private var marks: [Int] = []
    private var changesAtBegin = 0
    private var toleratedChanges = 0
    /// When retention last tried a checkpoint (monotonic seconds).
    private var lastRetention: Double = 0
    /// With `--message-log-apply later`: the rows handed out and not yet in SQLite.
    let unapplied: UnappliedMessages?
    /// With `--message-log-apply later`: the thread that syncs the committed rows and then
    /// answers the callers.
    let syncer: MessageLogSyncer?
    /// Rows committed and not yet handed to `syncer` (they go with the batch's answers).
    private var toHandOff: [LoggedMessage] = []
    /// Whether a transaction of the write session is open (statements outside one, the
    /// search indexer's and retention's, apply nothing).
    private var inTransaction = false
    /// Rows and delivered markers left for later since the open (only counts up), part of
    /// the session's change count.
    private(set) var deferredChanges = 0
    /// Set while rows are applied, so the statements of the apply do not apply again.
    private var applying = false
    /// Whether a message id is in `messages` (the confirmation of applied rows at commit);
    /// prepared at open, before anything observes the connection's statements.
    private let messageExists: SQLiteStatement?

    /// A passive checkpoint for retention is tried at most this often (seconds), so a reader
    /// holding its snapshot does not make every commit try again.
    private static let retentionInterval = 1.0

    /// With `--message-log-apply later` the `message-log` thread starts here (`syncSeam`: see
    /// `MessageLogSyncer`; `report`: told when its sync fails).
    init(log: SegmentLog, settings: MessageLogSettings, databasePath: String, connection: SQLiteConnection,
         syncSeam: MessageLogSyncer.SyncSeam? = nil, report: @escaping @Sendable (MessageLogApplyReport) -> Void = { _ in }) throws {
        self.log = log
        self.settings = settings
        walPath = databasePath + "-wal"
        if settings.apply == .later {
            let unapplied = UnappliedMessages()
            self.unapplied = unapplied
            messageExists = try connection.prepare("SELECT 1 FROM messages WHERE id = ?1")
            syncer = try MessageLogSyncer(log: log, counts: unapplied.waiting, seam: syncSeam, report: report)
        } else {
            unapplied = nil
            messageExists = nil
            syncer = nil
        }
    }

    /// Whether the log's sync failed (`--message-log-apply later`): nothing may be written
    /// until the store is opened again.
    var hasFailed: Bool { syncer?.hasFailed ?? false }

    /// Hands the rows committed since the last call and `answers` (the callers of the writes
    /// decided since then) to the `message-log` thread, which runs `answers` once the rows and
    /// every row handed before are synced; without that thread (`now`) runs it at once.
    func handOff(_ answers: @escaping @Sendable ((any Error)?) -> Void) {
        guard let syncer else {
            answers(nil)
            return
        }
        let rows = toHandOff
        toHandOff = []
        syncer.handOff(MessageLogSyncer.Entry(rows: rows, answers: answers))
    }

    /// A transaction begins.
    func begin(changes: Int) {
        pending.removeAll(keepingCapacity: true)
        marks.removeAll(keepingCapacity: true)
        changesAtBegin = changes
        toleratedChanges = 0
        inTransaction = true
    }

    /// An isolated write's savepoint opens, is kept, or is undone with its rows.
    func beginWrite() {
        marks.append(pending.count)
        unapplied?.beginWrite()
    }

    func keepWrite() {
        _ = marks.popLast()
        unapplied?.keepWrite()
    }

    func undoWrite() {
        if let mark = marks.popLast() { pending.removeSubrange(mark...) }
        unapplied?.undoWrite()
    }

    /// The transaction was rolled back: none of its rows are kept (acknowledged rows it
    /// applied wait again).
    func rollBack() {
        pending.removeAll(keepingCapacity: true)
        marks.removeAll(keepingCapacity: true)
        unapplied?.rollBack()
        inTransaction = false
    }

    /// A new row of the open transaction, left for later (`--message-log-apply later`): it
    /// is logged at commit like an inserted one, and applied later.
    func `defer`(_ message: LoggedMessage) {
        deferredChanges += 1
        pending.append(message)
        unapplied?.add(message)
    }

    /// The recipient's delivered marker moves to `seq`, the row the open write just left for
    /// later: it moves with the row's insert (at the apply, or the replay after a crash: the
    /// log record says so). False when that row is not one left for later (it is in SQLite,
    /// or there is no log), when it moves another recipient's marker already, or when
    /// `isMember` says the recipient is none (only a member gets a marker row): the caller
    /// moves the marker in SQLite.
    func deferDelivered(conversation: Int64, user: Int64, seq: Int64, isMember: () throws -> Bool) throws -> Bool {
        guard let unapplied, let last = pending.indices.last, pending[last].conversation == conversation, pending[last].seq == seq,
              unapplied.canDeliver(conversation: conversation, seq: seq, to: user) else { return false }
        if pending[last].deliveredTo == user { return true }
        guard try isMember() else { return false }
        unapplied.deliver(to: user)
        pending[last].deliveredTo = user
        deferredChanges += 1
        return true
    }

    /// Inserts the rows not yet in SQLite, front first, into the open transaction through
    /// `writer` (nothing outside a transaction of the write session, or
    /// while already applying). Their changes are tolerated: the rows are in the log. A
    /// failure leaves the rest unapplied and is thrown.
    func apply(through writer: SQLiteStoreWriter) throws {
        guard let unapplied, unapplied.hasRowsToApply, inTransaction, !applying else { return }
        applying = true
        defer { applying = false }
        let before = writer.connection.totalChanges
        defer { toleratedChanges += writer.connection.totalChanges - before }
        for row in unapplied.rows[unapplied.applied...] {
            _ = try writer.insertMessageRow(row, replaying: true)
            unapplied.applied(1)
        }
    }

    /// The apply's settings, with `--message-log-apply later`.
    var applySettings: MessageLogSettings? { unapplied == nil ? nil : settings }

    /// Whether committed rows wait for their apply (retention keeps their segments).
    var hasUnapplied: Bool { (unapplied?.committedRows ?? 0) > 0 }

    /// `message` was inserted; its statements changed `changes` rows.
    func logged(_ message: LoggedMessage, changes: Int) {
        pending.append(message)
        toleratedChanges += changes
    }

    /// Runs `body` (a marker move) and counts its changes as ones the log may skip.
    @discardableResult
    func tolerate<T>(_ connection: SQLiteConnection, _ body: () throws -> T) rethrows -> T {
        let before = connection.totalChanges
        defer { toleratedChanges += connection.totalChanges - before }
        return try body()
    }

    /// Before `COMMIT`: appends the transaction's rows to the log (synced; with a `message-log`
    /// thread they go to it after the commit instead) and says whether the commit must be
    /// followed by a sync of the WAL (it changed something else).
    func prepareCommit(changes: Int) throws -> Bool {
        if let unapplied, unapplied.applied > 0, let messageExists {
            // A closure's own savepoint that was undone may have taken applied rows with it:
            // only those still in the table are applied (rows go in id order, so the ones
            // left are a prefix).
            var present = unapplied.applied
            while present > 0, try !Self.exists(unapplied.rows[present - 1].id, messageExists) { present -= 1 }
            unapplied.confirmApplied(present)
        }
        if !pending.isEmpty && syncer == nil {
            do {
                try log.append(pending.map(\.record))
            } catch {
                throw StoreError.failure("message log: \(error)")
            }
        }
        // A row applied before its sync has only SQLite's copy until then: the commit is
        // synced, so no reader sees a row a power cut could still take.
        return changes - changesAtBegin != toleratedChanges || unapplied?.appliesUnsyncedRows == true
    }

    /// After `COMMIT`: the transaction's applied rows are in SQLite for good, its new rows
    /// are acknowledged (with a `message-log` thread: go to it with the next hand-off).
    func committed() {
        inTransaction = false
        if syncer != nil { toHandOff.append(contentsOf: pending) }
        unapplied?.committed(at: ContinuousClock.now)
    }

    private static func exists(_ id: Int64, _ statement: SQLiteStatement) throws -> Bool {
        statement.reset()
        defer { statement.reset() }
        try statement.bind(integer: id, at: 1)
        return try statement.step()
    }

    /// After a `COMMIT` that must be durable by itself: `fdatasync` of the WAL file, which
    /// is what `synchronous = FULL` does at commit.
    func syncWAL() throws {
        let fd = open(walPath, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { return }
            throw StoreError.failure("message log: open \(walPath): errno \(errno)")
        }
        defer { close(fd) }
        while fdatasync(fd) != 0 {
            if errno == EINTR { continue }
            throw StoreError.failure("message log: fdatasync \(walPath): errno \(errno)")
        }
    }

    /// After a commit: deletes the complete segments once a checkpoint put everything in the
    /// database file (see above). Best effort: what fails now is tried after a later commit.
    func retain(_ connection: SQLiteConnection) {
        // A row not in SQLite lives only in the log: nothing is dropped while one waits
        // (an apply step takes every row waiting, so this does not wait for long).
        guard log.segmentCount > 1, !hasUnapplied else { return }
        let over = log.byteCount > settings.maxBytes
        let now = Self.monotonicSeconds()
        guard over || now - lastRetention >= Self.retentionInterval else { return }
        lastRetention = now
        guard Self.checkpoint(connection, waitingForReaders: over) else { return }
        _ = try? log.dropCompleteSegments()
    }

    /// A WAL checkpoint; true when it copied every frame into the database file and synced
    /// it (SQLite syncs the WAL before and the database after, also at `NORMAL`).
    static func checkpoint(_ connection: SQLiteConnection, waitingForReaders: Bool) -> Bool {
        let sql = waitingForReaders ? "PRAGMA wal_checkpoint(FULL)" : "PRAGMA wal_checkpoint(PASSIVE)"
        guard let row = try? connection.queryFirst(sql, row: { row in (try row.int64(0), try row.int64(1), try row.int64(2)) })
        else { return false }
        return row.0 == 0 && row.1 == row.2
    }

    private static func monotonicSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
