import CSQLite

extension SQLiteConnection {
    /// When a transaction takes its locks.
    public enum TransactionKind: Sendable {
        /// Locks are taken by the first read or write. A read transaction that later writes
        /// can fail with `SQLITE_BUSY` without waiting, so prefer `immediate` for writes.
        case deferred
        /// The write lock is taken at once (waiting up to the busy timeout): the right kind
        /// for any transaction that will write.
        case immediate
        /// Like `immediate`; in WAL mode the two are the same.
        case exclusive

        var beginSQL: String {
            switch self {
            case .deferred: return "BEGIN DEFERRED"
            case .immediate: return "BEGIN IMMEDIATE"
            case .exclusive: return "BEGIN EXCLUSIVE"
            }
        }
    }

    /// Runs `body` in a transaction: commits if it returns, rolls back and rethrows if it
    /// throws. If committing fails (`SQLITE_BUSY`, a deferred foreign-key violation), the
    /// transaction is rolled back and the error thrown, so the caller may retry it whole.
    ///
    /// Inside another transaction this becomes a savepoint (and `kind` is moot): the inner
    /// work is undone alone if `body` throws, and kept or lost with the outer transaction.
    @discardableResult
    public func transaction<T>(kind: TransactionKind = .deferred, _ body: () throws -> T) throws -> T {
        if isInTransaction {
            return try savepoint(body)
        }
        try runPrepared(kind.beginSQL)
        let result: T
        do {
            result = try body()
        } catch {
            rollbackIfOpen()
            throw error
        }
        do {
            try runPrepared("COMMIT")
        } catch {
            rollbackIfOpen()
            throw error
        }
        return result
    }

    /// Runs `body` inside a savepoint: its work is kept if it returns and undone if it throws
    /// (the error is rethrown). Outside a transaction a savepoint is a deferred transaction.
    @discardableResult
    public func savepoint<T>(_ body: () throws -> T) throws -> T {
        savepointDepth += 1
        defer { savepointDepth -= 1 }
        let names = Self.savepointSQL(depth: savepointDepth)
        try runPrepared(names.open)
        let result: T
        do {
            result = try body()
        } catch {
            undoSavepoint(names.name)
            throw error
        }
        do {
            try runPrepared(names.release)
        } catch {
            undoSavepoint(names.name)
            throw error
        }
        return result
    }

    /// Runs a statement without parameters or rows (`BEGIN`, `COMMIT`, `SAVEPOINT`…) from the
    /// statement cache: these run for every write, and parsing their text each time showed
    /// in the writer thread's profile.
    public func runPrepared(_ sql: String) throws {
        try cachedStatementUnobserved(sql).run(bindings: [])
    }

    /// The savepoint name and its `SAVEPOINT` / `RELEASE` text for a nesting depth; the
    /// first few are built once, so that a write does not build strings.
    static func savepointSQL(depth: Int) -> (name: String, open: String, release: String) {
        if depth < commonSavepoints.count { return commonSavepoints[depth] }
        return makeSavepointSQL(depth)
    }

    private static let commonSavepoints = (0..<8).map(makeSavepointSQL)

    private static func makeSavepointSQL(_ depth: Int) -> (name: String, open: String, release: String) {
        let name = "parley_savepoint_\(depth)"
        return (name, "SAVEPOINT \(name)", "RELEASE \(name)")
    }

    /// Rolls back after a failure. Some errors (`SQLITE_FULL`, `SQLITE_IOERR`, …) have already
    /// rolled the transaction back; the original error matters more than this one, so any
    /// failure here is dropped.
    private func rollbackIfOpen() {
        if isInTransaction {
            sqlite3_exec(database.pointer, "ROLLBACK", nil, nil, nil)
        }
    }

    /// `ROLLBACK TO` undoes the work but leaves the savepoint open; `RELEASE` then closes it.
    /// Failures are dropped for the same reason as in `rollbackIfOpen`.
    private func undoSavepoint(_ name: String) {
        sqlite3_exec(database.pointer, "ROLLBACK TO \(name)", nil, nil, nil)
        sqlite3_exec(database.pointer, "RELEASE \(name)", nil, nil, nil)
    }
}
