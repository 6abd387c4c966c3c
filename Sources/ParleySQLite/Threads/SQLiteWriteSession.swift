import ParleyCore
import ParleySQL
import ParleyStoreSupport

/// The writer connection's transaction statements, as `ThreadedStore`'s group-commit writer
/// drives them. Used only on the writer thread (made before it starts and handed to it).
final class SQLiteWriteSession: StoreWriteSession {
    private let connection: SQLiteConnection
    /// The store's writer, with its concrete type (the apply of unapplied message rows needs it).
    private let sqliteWriter: SQLiteStoreWriter
    var writer: any StoreWriter { sqliteWriter }
    private let scrubber: WALScrubber
    /// The message log, when it is the durability point of message inserts.
    private let journal: MessageLogJournal?
    /// Indexes new messages for search between batches.
    private let searchIndexer: SearchIndexer
    /// The upkeep between batches: the search index, and with `--message-log-apply later`
    /// first the apply of acknowledged message rows (so the index step sees them).
    let upkeep: (any WriterUpkeep)?

    // The savepoint of an isolated write. Closures' own savepoints (`SQLiteConnection.savepoint`)
    // have names of their own, so they nest inside it.
    private static let openSavepoint = "SAVEPOINT parley_write"
    private static let releaseSavepoint = "RELEASE parley_write"
    private static let rollBackToSavepoint = "ROLLBACK TO parley_write"

    /// `journal`: the message log, when it is the durability point of message inserts (the
    /// connection is then at `synchronous = NORMAL`; see `MessageLogJournal`). `searchIndex`:
    /// how new messages join the full-text index (`SearchIndexer`); `searchIndexReport`: where
    /// its failures are told.
    /// `applyReport`: where failed apply steps of `--message-log-apply later` are told.
    init(connection: SQLiteConnection, journal: MessageLogJournal? = nil, searchIndex: SearchIndexSettings = SearchIndexSettings(),
         searchIndexReport: @escaping @Sendable (SearchIndexReport) -> Void = { _ in },
         applyReport: @escaping @Sendable (MessageLogApplyReport) -> Void = { _ in }) throws {
        self.connection = connection
        self.journal = journal
        let scrubber = WALScrubber()
        self.scrubber = scrubber
        let indexer = try SearchIndexer(connection: connection, settings: searchIndex, report: searchIndexReport)
        searchIndexer = indexer
        let writer = SQLiteStoreWriter(connection: connection, sending: SendStatements(connection: connection), scrubber: scrubber,
                                       journal: journal, searchIndex: indexer)
        sqliteWriter = writer
        guard let journal, let unapplied = journal.unapplied, let settings = journal.applySettings else {
            upkeep = indexer
            return
        }
        let applier = MessageLogApplier(unapplied: unapplied, settings: settings, report: applyReport)
        upkeep = WriterUpkeeps([applier, indexer])
        applier.session = self
        // No statement of a write misses an acknowledged row (the send path's prepared
        // statements are not seen here).
        connection.beforeStatement = { [unowned self] in try self.applyUnapplied() }
    }

    deinit {
        connection.beforeStatement = nil
    }

    /// Inserts the acknowledged rows not yet in SQLite into the open transaction
    /// (`--message-log-apply later`; nothing otherwise).
    func applyUnapplied() throws {
        try journal?.apply(through: sqliteWriter)
    }

    func begin() throws {
        // After a failed sync of the log nothing it covers may be written (nor applied).
        if journal?.hasFailed == true { throw MessageLogSyncer.failure }
        // IMMEDIATE takes the write lock at once: a batch never fails halfway for want of it.
        try connection.runPrepared("BEGIN IMMEDIATE")
        journal?.begin(changes: connection.totalChanges)
    }

    func commit() throws {
        guard let journal else {
            try connection.runPrepared("COMMIT")
            scrubber.scrubIfRequested(connection)
            return
        }
        // The log first: once it is synced the rows survive whatever happens to this commit.
        let mustSync = try journal.prepareCommit(changes: connection.totalChanges)
        try connection.runPrepared("COMMIT")
        journal.committed()
        if mustSync { try journal.syncWAL() }
        scrubber.scrubIfRequested(connection)
        journal.retain(connection)
    }

    func rollBack() {
        scrubber.requested = false
        journal?.rollBack()
        if connection.isInTransaction { try? connection.execute("ROLLBACK") }
    }

    func beginWrite() throws {
        try connection.runPrepared(Self.openSavepoint)
        journal?.beginWrite()
    }

    func keepWrite() throws {
        try connection.runPrepared(Self.releaseSavepoint)
        journal?.keepWrite()
    }

    func undoWrite() throws {
        // ROLLBACK TO undoes the changes but leaves the savepoint open; RELEASE closes it.
        try connection.runPrepared(Self.rollBackToSavepoint)
        try connection.runPrepared(Self.releaseSavepoint)
        journal?.undoWrite()
    }

    /// Some errors (a full disk, an I/O error) make SQLite roll back the whole transaction,
    /// not just the statement.
    var state: WriteTransactionState { connection.isInTransaction ? .open : .lost }

    /// SQLite's changes, and with `--message-log-apply later` the rows and delivered markers
    /// left for later, which change nothing in SQLite but must be undone like an insert when
    /// their write fails.
    var changeCount: Int { connection.totalChanges + (journal?.deferredChanges ?? 0) }

    var retryableFailure: (any Error)? { nil }

    /// With `--message-log-apply later` the callers hear back on the `message-log` thread,
    /// once the rows committed before their answers are synced (`MessageLogSyncer`).
    func tell(_ answers: @escaping @Sendable ((any Error)?) -> Void) {
        guard let journal else {
            answers(nil)
            return
        }
        journal.handOff(answers)
    }

    /// Whether the log's sync failed: the store writes nothing more until opened again.
    var hasFailed: Bool { journal?.hasFailed ?? false }

    func translate(_ error: any Error, during operation: String) -> any Error {
        StoreError.translating(error, during: operation)
    }
}
