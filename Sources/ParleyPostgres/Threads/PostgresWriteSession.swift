import ParleyCore
import ParleyStoreSupport

/// A writer connection's transaction statements, as `ThreadedStore`'s group-commit writer
/// drives them. Used only on its writer thread (made before it starts and handed to it).
///
/// Transaction control costs no round trip of its own: `BEGIN` and each write's savepoint
/// are deferred to travel with the next statement (libpq's pipeline), and a write that
/// succeeds leaves its savepoint in place, released by the commit.
final class PostgresWriteSession: StoreWriteSession {
    private let connection: PostgresConnection
    let writer: any StoreWriter

    init(connection: PostgresConnection) {
        self.connection = connection
        writer = PostgresStoreWriter(connection: connection)
    }

    func begin() throws {
        // A connection the server dropped is made again before the next batch; the work that
        // was on it has failed with the reason.
        if !connection.isConnected { try connection.reconnect() }
        connection.clearTransientFailure()
        connection.discardDeferred()
        connection.deferCommand("BEGIN")
    }

    func commit() throws {
        let result = try connection.execute("COMMIT")
        // COMMIT of a failed transaction "succeeds" by rolling back.
        if result.commandStatus != "COMMIT" {
            throw StoreError.failure("commit: PostgreSQL rolled the transaction back; nothing was saved")
        }
    }

    func rollBack() {
        connection.discardDeferred()
        if connection.isInTransaction { _ = try? connection.execute("ROLLBACK") }
    }

    func beginWrite() throws {
        // A rollback below goes to the newest savepoint of the name: the write's own.
        connection.deferCommand("SAVEPOINT parley_write")
    }

    func keepWrite() throws {}

    func undoWrite() throws {
        try connection.execute("ROLLBACK TO SAVEPOINT parley_write; RELEASE SAVEPOINT parley_write")
    }

    var state: WriteTransactionState {
        if !connection.isConnected { return .lost }
        return connection.isInFailedTransaction ? .failed : .open
    }

    var changeCount: Int { 0 }

    var retryableFailure: (any Error)? { connection.transientFailure }

    func translate(_ error: any Error, during operation: String) -> any Error {
        StoreError.translating(error, during: operation)
    }
}
