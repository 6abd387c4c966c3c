import ParleyCore
import ParleySQL
import ParleyStoreSupport

/// The writer connection's transaction statements, as `ThreadedStore`'s group-commit writer
/// drives them. Used only on the writer thread (made before it starts and handed to it).
final class SQLiteWriteSession: StoreWriteSession {
    private let connection: SQLiteConnection
    let writer: any StoreWriter
    private let scrubber: WALScrubber

    // The savepoint of an isolated write. Closures' own savepoints (`SQLiteConnection.savepoint`)
    // have names of their own, so they nest inside it.
    private static let openSavepoint = "SAVEPOINT parley_write"
    private static let releaseSavepoint = "RELEASE parley_write"
    private static let rollBackToSavepoint = "ROLLBACK TO parley_write"

    init(connection: SQLiteConnection) {
        self.connection = connection
        let scrubber = WALScrubber()
        self.scrubber = scrubber
        writer = SQLiteStoreWriter(connection: connection, sending: SendStatements(connection: connection), scrubber: scrubber)
    }

    func begin() throws {
        // IMMEDIATE takes the write lock at once: a batch never fails halfway for want of it.
        try connection.runPrepared("BEGIN IMMEDIATE")
    }

    func commit() throws {
        try connection.runPrepared("COMMIT")
        scrubber.scrubIfRequested(connection)
    }

    func rollBack() {
        scrubber.requested = false
        if connection.isInTransaction { try? connection.execute("ROLLBACK") }
    }

    func beginWrite() throws {
        try connection.runPrepared(Self.openSavepoint)
    }

    func keepWrite() throws {
        try connection.runPrepared(Self.releaseSavepoint)
    }

    func undoWrite() throws {
        // ROLLBACK TO undoes the changes but leaves the savepoint open; RELEASE closes it.
        try connection.runPrepared(Self.rollBackToSavepoint)
        try connection.runPrepared(Self.releaseSavepoint)
    }

    /// Some errors (a full disk, an I/O error) make SQLite roll back the whole transaction,
    /// not just the statement.
    var state: WriteTransactionState { connection.isInTransaction ? .open : .lost }

    var changeCount: Int { connection.totalChanges }

    var retryableFailure: (any Error)? { nil }

    func translate(_ error: any Error, during operation: String) -> any Error {
        StoreError.translating(error, during: operation)
    }
}
