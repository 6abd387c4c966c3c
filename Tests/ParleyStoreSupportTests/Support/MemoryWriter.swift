/// What a write closure gets from the test backend: the open transaction's rows, and ways
/// to make the transaction fail as real databases do. Used only on the writer thread.
final class MemoryWriter {
    /// The transaction's rows (nil outside a transaction).
    var rows: [String: Int]?
    /// Moves with every change (the backend's `changeCount`).
    private(set) var changes = 0
    /// Set when a statement failed the transaction (PostgreSQL's aborted transaction).
    var isFailed = false
    /// Set when the database rolled the transaction back by itself (SQLite after an I/O error).
    var isLost = false
    /// A deadlock seen since the transaction began, whatever the closure did with it.
    var deadlock: MemoryDatabaseError?

    func value(_ key: String) -> Int? { rows?[key] }

    func set(_ key: String, _ value: Int) {
        rows?[key] = value
        changes += 1
    }

    /// A statement that fails the transaction; the closure may catch the error and go on.
    func failTransaction() throws {
        isFailed = true
        throw MemoryTestError.statementFailed
    }

    /// An error after which the database has rolled back the whole transaction.
    func loseTransaction() throws {
        rows = nil
        isLost = true
        throw MemoryTestError.ioError
    }

    /// A lost race against another writer.
    func loseDeadlock() throws {
        deadlock = .deadlock
        isFailed = true
        throw MemoryDatabaseError.deadlock
    }
}

/// Errors test closures throw.
enum MemoryTestError: Error, Equatable {
    case refused
    case statementFailed
    case ioError
}
