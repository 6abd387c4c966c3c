extension SQLiteConnection {
    /// How SQLite keeps its rollback information (`PRAGMA journal_mode`).
    public enum JournalMode: String, Sendable {
        /// Rollback journal, deleted after each transaction (SQLite's default).
        case delete
        /// Rollback journal, truncated after each transaction.
        case truncate
        /// Rollback journal, its header zeroed after each transaction.
        case persist
        /// Rollback journal in memory (the only choice for in-memory databases).
        case memory
        /// Write-ahead log: readers do not block the writer nor it them.
        case wal
        /// No journal: a crash or rollback can corrupt the database.
        case off
    }

    /// How hard SQLite flushes to disk (`PRAGMA synchronous`).
    public enum SynchronousMode: Int, Sendable {
        /// Never syncs: fast, and a power cut can corrupt the database.
        case off = 0
        /// With WAL, syncs only at checkpoints: durable against crashes, and a power cut can
        /// lose the last commits but not corrupt the database.
        case normal = 1
        /// Syncs at every commit: no committed transaction is lost to a power cut.
        case full = 2
        /// Like `full`, also syncing the directory after deleting a rollback journal.
        case extra = 3
    }

    /// The journal mode in effect.
    public func journalMode() throws -> JournalMode {
        try journalMode(from: pragma("PRAGMA journal_mode"))
    }

    /// Asks for journal mode `mode` and returns the mode actually in effect: SQLite keeps
    /// `memory` for in-memory databases even when asked for `wal`, so check the answer.
    /// Must not be called inside a transaction.
    @discardableResult
    public func setJournalMode(_ mode: JournalMode) throws -> JournalMode {
        try journalMode(from: pragma("PRAGMA journal_mode = \(mode.rawValue)"))
    }

    /// The synchronous setting in effect.
    public func synchronousMode() throws -> SynchronousMode {
        let value = try pragma("PRAGMA synchronous")
        guard case .integer(let raw) = value, let mode = SynchronousMode(rawValue: Int(raw)) else {
            throw SQLiteError.mismatch("unexpected synchronous value \(value)", sql: "PRAGMA synchronous")
        }
        return mode
    }

    /// Sets the synchronous setting for this connection.
    public func setSynchronousMode(_ mode: SynchronousMode) throws {
        try execute("PRAGMA synchronous = \(mode.rawValue)")
    }

    /// Whether foreign keys are enforced on this connection (SQLite's default is no).
    public func foreignKeysEnabled() throws -> Bool {
        try pragma("PRAGMA foreign_keys") == .integer(1)
    }

    /// Turns enforcement of foreign keys on or off for this connection. Has no effect inside a
    /// transaction, which is SQLite's rule, so it is refused there.
    public func setForeignKeysEnabled(_ enabled: Bool) throws {
        guard !isInTransaction else {
            throw SQLiteError.misuse("foreign_keys cannot change inside a transaction", sql: "PRAGMA foreign_keys")
        }
        try execute("PRAGMA foreign_keys = \(enabled ? "ON" : "OFF")")
    }

    /// The schema version stored in the database header (`PRAGMA user_version`); 0 for a new
    /// database. `SQLiteMigrator` keeps it.
    public func userVersion() throws -> Int {
        let value = try pragma("PRAGMA user_version")
        guard case .integer(let raw) = value else {
            throw SQLiteError.mismatch("unexpected user_version value \(value)", sql: "PRAGMA user_version")
        }
        return Int(raw)
    }

    /// Stores `version` (a 32-bit signed number) in the database header; part of the
    /// enclosing transaction, if any.
    public func setUserVersion(_ version: Int) throws {
        guard let version = Int32(exactly: version) else {
            throw SQLiteError.range("user_version \(version) does not fit in 32 bits", sql: "PRAGMA user_version")
        }
        try execute("PRAGMA user_version = \(version)")
    }

    /// The first column of the first row of a pragma query, or `NULL` if it returns no row.
    private func pragma(_ sql: String) throws -> SQLiteValue {
        // Only fixed text and numbers from enums reach these strings, never caller data.
        let statement = try prepare(sql)
        return try statement.queryFirst(bindings: []) { $0.value(at: 0) } ?? .null
    }

    private func journalMode(from value: SQLiteValue) throws -> JournalMode {
        guard case .text(let text) = value, let mode = JournalMode(rawValue: text.lowercased()) else {
            throw SQLiteError.mismatch("unexpected journal_mode value \(value)", sql: "PRAGMA journal_mode")
        }
        return mode
    }
}
