import ParleyStoreSupport

/// The test backend's writer session: transactions over a copy of the committed rows, a
/// stack of savepoints, and every statement recorded in the database's log.
final class MemoryWriteSession: StoreWriteSession {
    let writer = MemoryWriter()
    private let database: MemoryDatabase
    private var savepoints: [[String: Int]?] = []
    /// Called when the session is freed (its writer thread ended).
    private let onDeinit: @Sendable () -> Void

    init(database: MemoryDatabase, onDeinit: @escaping @Sendable () -> Void = {}) {
        self.database = database
        self.onDeinit = onDeinit
    }

    deinit { onDeinit() }

    func begin() throws {
        database.record("begin")
        writer.rows = database.rows
        writer.isFailed = false
        writer.isLost = false
        writer.deadlock = nil
        savepoints.removeAll()
    }

    func commit() throws {
        guard let rows = writer.rows, !writer.isFailed else {
            database.record("commit")
            throw MemoryTestError.statementFailed
        }
        writer.rows = nil
        try database.commit(rows)
    }

    func rollBack() {
        if writer.rows != nil { database.record("rollback") }
        writer.rows = nil
        savepoints.removeAll()
    }

    func beginWrite() throws {
        database.record("savepoint")
        savepoints.append(writer.rows)
    }

    func keepWrite() throws {
        database.record("release")
        _ = savepoints.popLast()
    }

    func undoWrite() throws {
        database.record("rollback to")
        writer.rows = savepoints.popLast() ?? nil
        writer.isFailed = false
    }

    var state: WriteTransactionState {
        if writer.isLost { return .lost }
        return writer.isFailed ? .failed : .open
    }

    var changeCount: Int { writer.changes }

    var retryableFailure: (any Error)? { writer.deadlock }

    func translate(_ error: any Error, during operation: String) -> any Error { error }
}
