public import ParleyCore
import ParleyLog
import ParleySQL
import ParleyStoreSupport

/// `Store` on one SQLite file: the default, durable store of `parley serve`.
///
/// **Threads.** The store runs on `ThreadedStore` (ParleyStoreSupport) with `SQLiteBackend`:
/// no store work runs on the caller's thread, so event loops and the async runtime never
/// block on SQLite. One writer thread with its own connection runs every `write`, with group
/// commit: it takes all queued writes (up to `batchLimit`), runs them in one `BEGIN
/// IMMEDIATE` transaction (without savepoints until one fails after changing rows), commits
/// once, and only then tells the callers. `readers` threads, each with its own read-only
/// connection, run the `read`s; in WAL mode they run beside the writer and never wait for it.
/// Idle threads sleep.
///
/// **Durability.** With `.full` (the default), a `write` returns only after its commit is on
/// disk: it survives the process being killed and the machine losing power.
///
/// **Ownership.** The threads hold the queues and their connections, never the store, so an
/// abandoned store is still freed. Call `close()` when done: it lets queued work finish and
/// then stops the threads and closes the database. Deinit does the same as a fallback.
///
/// `init` opens and migrates the database on the calling thread: call it at start-up, not on
/// an event loop.
public final class SQLiteStore: Store {
    /// How hard a commit pushes data to the disk (SQLite's `PRAGMA synchronous`, in WAL mode).
    public enum Synchronous: Sendable {
        /// Every commit is synced to disk before `write` returns: an acknowledged write
        /// survives a crash of the process and a power cut. Group commit shares the one
        /// fsync among a whole batch of writes.
        case full
        /// Commits are synced only at WAL checkpoints: an acknowledged write survives a crash
        /// of the process, but a power cut or kernel crash can lose the last ones (the
        /// database itself stays intact). Faster; only for data that may be lost.
        case normal

        var mode: SQLiteConnection.SynchronousMode {
            switch self {
            case .full: return .full
            case .normal: return .normal
            }
        }
    }

    /// The database file.
    public let path: String
    private let engine: ThreadedStore<SQLiteBackend>
    /// The message log and its lock, with `messageLog` settings, and with
    /// `--message-log-apply later` the `message-log` thread that syncs it.
    private let messageLog: (log: SegmentLog, lock: DirectoryLock, syncer: MessageLogSyncer?)?
    /// With `--message-log-apply later`: the rows acknowledged and not yet in SQLite, which a
    /// read must have applied first.
    private let unapplied: UnappliedCount?
    /// Message rows the open replayed from the message log (see `MessageLogReplay`).
    public let replayedFromMessageLog: Int
    /// The schema versions applied by this open (empty when the file was up to date).
    let appliedMigrations: [Int]
    /// What the migrations applied by this open changed in stored data, one line each (for
    /// the server's log).
    public let migrationNotes: [String]

    /// How long a connection waits for another process's lock before failing. Within one
    /// process only the writer writes, so this matters only when tools open the file too.
    private static let busyTimeout = Duration.seconds(5)

    /// Opens the database at `path`, creating the file if needed (its directory must exist),
    /// brings its schema up to date and starts the threads.
    ///
    /// - Parameters:
    ///   - readers: how many reader threads and connections; at least one.
    ///   - synchronous: how hard commits are synced to disk; see `Synchronous`.
    ///   - batchLimit: most writes committed in one transaction.
    ///   - messageLog: the segment log as the durability point of message inserts (nil:
    ///     none, every commit synced by SQLite). With it, the log is opened and replayed
    ///     before anything is served, and `synchronous` is `NORMAL` for commits the log
    ///     covers (`MessageLogJournal`).
    ///   - searchIndex: how the writer brings the full-text index up to date after sends
    ///     (`SearchIndexer`).
    ///   - searchIndexReport: told when an indexing step fails and when indexing recovers
    ///     (called on the writer thread; keep it short), for the server's log.
    ///   - messageLogApplyReport: the same for the apply of acknowledged rows
    ///     (`MessageLogSettings.Apply.later`), and the failure of its log's sync.
    /// - Throws: `StoreError.failure` if the file cannot be opened, is not a database, or
    ///   has a newer schema than this build knows.
    public convenience init(path: String, readers: Int = 2, synchronous: Synchronous = .full,
                            batchLimit: Int = 256, messageLog settings: MessageLogSettings? = nil,
                            searchIndex: SearchIndexSettings = SearchIndexSettings(),
                            searchIndexReport: @escaping @Sendable (SearchIndexReport) -> Void = { _ in },
                            messageLogApplyReport: @escaping @Sendable (MessageLogApplyReport) -> Void = { _ in }) throws {
        try self.init(path: path, readers: readers, synchronous: synchronous, batchLimit: batchLimit, messageLog: settings,
                      searchIndex: searchIndex, searchIndexReport: searchIndexReport, messageLogApplyReport: messageLogApplyReport,
                      messageLogSyncSeam: nil)
    }

    /// The public `init`, and for tests `messageLogSyncSeam`, which runs every sync of the
    /// `message-log` thread (`MessageLogSyncer.SyncSeam`: it may hold it back or fail it).
    init(path: String, readers: Int = 2, synchronous: Synchronous = .full,
         batchLimit: Int = 256, messageLog settings: MessageLogSettings? = nil,
         searchIndex: SearchIndexSettings = SearchIndexSettings(),
         searchIndexReport: @escaping @Sendable (SearchIndexReport) -> Void = { _ in },
         messageLogApplyReport: @escaping @Sendable (MessageLogApplyReport) -> Void = { _ in },
         messageLogSyncSeam: MessageLogSyncer.SyncSeam?) throws {
        let writerConnection: SQLiteConnection
        var readerConnections: [SQLiteConnection] = []
        var journal: MessageLogJournal?
        var opened: (log: SegmentLog, lock: DirectoryLock)?
        var replayed = 0
        let writeSession: SQLiteWriteSession
        do {
            writerConnection = try SQLiteConnection(path: path, flags: [.readWrite, .create])
            writerConnection.busyTimeout = Self.busyTimeout
            guard try writerConnection.setJournalMode(.wal) == .wal else {
                throw StoreError.failure("open \(path): SQLite would not use WAL journal mode")
            }
            try writerConnection.setSynchronousMode(synchronous.mode)
            try writerConnection.setForeignKeysEnabled(true)
            // A recalled message's text must not linger in freed space (`WALScrubber`).
            try writerConnection.execute("PRAGMA secure_delete = ON")
            appliedMigrations = try SQLiteStoreSchema.migrator.migrate(writerConnection)
            migrationNotes = appliedMigrations.contains(7)
                ? try writerConnection.query("SELECT note FROM migration_notes WHERE version = 7") { try $0.string(0) } : []
            if let settings {
                let (log, lock, count) = try MessageLogReplay.open(settings, connection: writerConnection)
                opened = (log, lock)
                replayed = count
                // From now on the log is the durability point of message inserts.
                try writerConnection.setSynchronousMode(.normal)
                journal = try MessageLogJournal(log: log, settings: settings, databasePath: path, connection: writerConnection,
                                                syncSeam: messageLogSyncSeam, report: messageLogApplyReport)
            }
            // Read-only opens: a read can never write, whatever its closure tries.
            for _ in 0..<max(1, readers) {
                let connection = try SQLiteConnection(path: path, flags: [.readOnly])
                connection.busyTimeout = Self.busyTimeout
                readerConnections.append(connection)
            }
            writeSession = try SQLiteWriteSession(connection: writerConnection, journal: journal, searchIndex: searchIndex,
                                                  searchIndexReport: searchIndexReport, applyReport: messageLogApplyReport)
        } catch {
            throw StoreError.translating(error, during: "open \(path)")
        }

        self.path = path
        messageLog = opened.map { ($0.log, $0.lock, journal?.syncer) }
        unapplied = journal?.unapplied?.waiting
        replayedFromMessageLog = replayed
        engine = try ThreadedStore(backend: SQLiteBackend(), writers: [writeSession], readers: readerConnections,
                                   batchLimit: batchLimit)
    }

    /// Runs `body` on a reader thread, in a read transaction: every query in it sees the
    /// database as of one commit.
    ///
    /// With `--message-log-apply later`, while acknowledged message rows are not yet in
    /// SQLite, a write that applies them runs first (through the write queue, so every row
    /// acknowledged before this read began is applied when it returns); with none waiting
    /// (one atomic load) nothing extra happens.
    public nonisolated(nonsending) func read<T: Sendable>(_ body: @escaping @Sendable (StoreReader) throws -> T) async throws -> T {
        if let unapplied, unapplied.count > 0 {
            try await engine.write { writer in try (writer as? SQLiteStoreWriter)?.applyUnapplied() }
        }
        return try await engine.read(body)
    }

    /// Runs `body` on the writer thread, in the next batch's transaction, and returns
    /// once the batch is committed (synced to disk with `.full`). If `body` throws, its own
    /// changes are undone and its error rethrown; the rest of the batch is unaffected. If the
    /// commit fails, every write of the batch whose `body` had succeeded fails with the
    /// commit's error (its changes were not kept).
    ///
    /// A queued write cannot be cancelled: once `body` has run, its outcome is decided by
    /// the commit, and the caller is told which.
    public nonisolated(nonsending) func write<T: Sendable>(_ body: @escaping @Sendable (StoreWriter) throws -> T) async throws -> T {
        try await engine.write(body)
    }

    /// `write` for callers that are not tasks (an event loop): the same batch, commit and
    /// outcomes, without a task or a continuation. `completion` runs on the writer thread
    /// (or at once, if the store is closed), so it must only hand the outcome on (e.g.
    /// `loop.execute`): every other write waits while it runs.
    public func write<T: Sendable>(_ body: @escaping @Sendable (StoreWriter) throws -> T,
                                   completion: @escaping @Sendable (Result<T, any Error>) -> Void) {
        engine.write(body, completion: completion)
    }

    /// Refuses new work, lets queued reads and writes finish, stops the threads and closes
    /// the database. Blocks until then, so call it at shutdown, not on an event loop. Later
    /// calls (and concurrent ones) return at once; reads and writes after it fail.
    public func close() {
        engine.close()
        if let messageLog {
            // After the writer: nothing more is handed off; the thread syncs and answers
            // what was, and then no commit can append any more.
            messageLog.syncer?.close()
            messageLog.log.close()
            messageLog.lock.release()
        }
    }

    deinit {
        // The log's lock goes only after the writer thread stopped.
        if messageLog != nil { close() }
    }

    // MARK: For tests

    /// Transactions committed since opening (each one sync with `.full`); public for
    /// `parley-bench log-append`, which counts syncs per second.
    public var commitCount: Int { engine.commitCount }

    /// Writes queued and not yet taken by the writer.
    var queuedWriteCount: Int { engine.queuedWriteCount }
}
