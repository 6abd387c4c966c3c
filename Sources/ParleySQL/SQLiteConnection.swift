import CSQLite

/// One open SQLite database: runs scripts, prepares and caches statements, and (in its
/// extensions) runs transactions and sets pragmas.
///
/// Threading: a connection, and every statement prepared on it, must be used by one thread
/// at a time; its owner serialises use (a store's own thread, or a pool that lends each
/// connection to one worker at a time). Connections are opened with `SQLITE_OPEN_NOMUTEX`
/// (SQLite's "multi-thread" mode), so SQLite itself does not lock them: its mutex would buy
/// nothing, because this class's own state (the statement cache, savepoint depth) needs the
/// same serialisation anyway. For parallel work, open one connection per thread: SQLite
/// coordinates separate connections to one file through file locks (and WAL lets readers
/// run beside a writer).
///
/// The database is closed when the connection and every statement prepared on it are gone.
public final class SQLiteConnection: @unchecked Sendable {
    // @unchecked Sendable: only so that a connection can be handed to the thread that will
    // use it. Invariant: the owner never uses one connection (or its statements) from two
    // threads at once; see the type's documentation.

    /// How to open a database file.
    public struct OpenFlags: OptionSet, Sendable {
        /// The raw `SQLITE_OPEN_*` bits.
        public let rawValue: Int32
        /// Creates flags from raw `SQLITE_OPEN_*` bits.
        public init(rawValue: Int32) { self.rawValue = rawValue }

        /// Open for reading only.
        public static let readOnly = OpenFlags(rawValue: SQLITE_OPEN_READONLY)
        /// Open for reading and writing.
        public static let readWrite = OpenFlags(rawValue: SQLITE_OPEN_READWRITE)
        /// Create the file if it does not exist (with `readWrite`).
        public static let create = OpenFlags(rawValue: SQLITE_OPEN_CREATE)
        /// Refuse to follow a symbolic link as the database path.
        public static let noFollow = OpenFlags(rawValue: SQLITE_OPEN_NOFOLLOW)
    }

    /// The path the database was opened with (`":memory:"` for an in-memory database).
    public let path: String
    /// Keeps the `sqlite3*`; shared with every statement so the database outlives them all.
    let database: SQLiteDatabaseHandle
    /// Prepared statements by SQL text, reused by `cachedStatement(_:)`.
    private var statementCache: [String: SQLiteStatement] = [:]
    /// How many savepoints are open, to give nested ones distinct names.
    var savepointDepth = 0
    /// Runs before every statement this connection prepares, looks up or executes, except the
    /// transaction control of `runPrepared` (statements prepared once and kept by their owner
    /// are not seen again). The SQLite store's writer brings acknowledged message rows it has
    /// not inserted yet into the transaction here, so no statement can miss them
    /// (`MessageLogJournal`, `--message-log-apply later`). A throw fails the statement.
    public var beforeStatement: (() throws -> Void)?

    /// Most statements kept by `cachedStatement(_:)`; SQL built at run time (an `IN` list of
    /// varying length, say) would otherwise grow the cache without bound.
    public var statementCacheCapacity = 128 {
        didSet { trimStatementCache() }
    }

    /// SQLite's process-wide configuration, applied once, before the first database opens
    /// (SQLite accepts it only until it initializes). Memory statistics are off: they cost a
    /// global mutex per allocation and per free (a few thousand instructions for each
    /// message the writer stores), and nothing reads them.
    private static let processConfiguration: Void = {
        _ = parley_sqlite3_disable_memory_statistics()
    }()

    /// The bytes SQLite's memory statistics count as in use: 0 in this process, whatever is
    /// open, since `processConfiguration` turns the statistics off (for tests).
    static var countedMemoryInUse: Int64 {
        _ = processConfiguration
        return sqlite3_memory_used()
    }

    /// Opens (and by default creates) the database file at `path`.
    public init(path: String, flags: OpenFlags = [.readWrite, .create]) throws {
        _ = Self.processConfiguration
        var pointer: OpaquePointer?
        let rc = sqlite3_open_v2(path, &pointer, flags.rawValue | SQLITE_OPEN_NOMUTEX, nil)
        guard rc == SQLITE_OK, let pointer else {
            let error = SQLiteError(resultCode: rc, database: pointer, sql: nil)
            // SQLite allocates a handle even when opening fails; it must still be closed.
            sqlite3_close_v2(pointer)
            throw SQLiteError(extendedCode: error.extendedCode, message: "\(error.message): \(path)")
        }
        // Extended codes tell a UNIQUE violation from a NOT NULL one; callers need that.
        sqlite3_extended_result_codes(pointer, 1)
        self.path = path
        self.database = SQLiteDatabaseHandle(pointer: pointer)
    }

    /// Opens a new, empty, private in-memory database.
    public static func inMemory() throws -> SQLiteConnection {
        try SQLiteConnection(path: ":memory:")
    }

    deinit {
        // Finalize cached statements now; the database closes when the last other holder
        // (a statement the caller kept) is gone.
        statementCache.removeAll()
    }

    // MARK: Statements

    /// Runs `sql`, which may hold several statements separated by semicolons (a schema, a
    /// migration). Nothing can be bound here: never build it from user data.
    public func execute(_ sql: String) throws {
        try beforeStatement?()
        let rc = sqlite3_exec(database.pointer, sql, nil, nil, nil)
        guard rc == SQLITE_OK else {
            throw SQLiteError(resultCode: rc, database: database.pointer, sql: sql)
        }
    }

    /// Prepares one statement; the caller owns it.
    public func prepare(_ sql: String) throws -> SQLiteStatement {
        try beforeStatement?()
        return try SQLiteStatement(database: database, sql: sql, persistent: false)
    }

    /// A prepared statement for `sql`, reused across calls with the same text: reset, with
    /// bindings cleared. Saves parsing and planning on hot paths.
    ///
    /// If the cached statement is still running (the caller is in the middle of it, say inside
    /// its `query` closure), a fresh, uncached statement is returned instead, so that nested
    /// use of the same SQL cannot disturb the outer one.
    public func cachedStatement(_ sql: String) throws -> SQLiteStatement {
        try beforeStatement?()
        return try cachedStatementUnobserved(sql)
    }

    /// `cachedStatement` without `beforeStatement` (transaction control).
    func cachedStatementUnobserved(_ sql: String) throws -> SQLiteStatement {
        if let statement = statementCache[sql] {
            if statement.isRunning {
                return try SQLiteStatement(database: database, sql: sql, persistent: false)
            }
            statement.reset()
            statement.clearBindings()
            return statement
        }
        let statement = try SQLiteStatement(database: database, sql: sql, persistent: true)
        if statementCacheCapacity > 0 {
            trimStatementCache(reserving: 1)
            statementCache[sql] = statement
        }
        return statement
    }

    /// Drops every cached statement (those still held elsewhere stay valid).
    public func clearStatementCache() {
        statementCache.removeAll()
    }

    private func trimStatementCache(reserving slots: Int = 0) {
        // Evicting an arbitrary entry is enough: the cache is for a bounded set of hot SQL, and
        // a statement still in use elsewhere is unaffected by leaving the cache.
        while !statementCache.isEmpty && statementCache.count + slots > max(0, statementCacheCapacity) {
            statementCache.remove(at: statementCache.startIndex)
        }
    }

    // MARK: State

    /// The row id of the most recent successful `INSERT` on this connection.
    public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(database.pointer) }

    /// Rows changed by the most recent `INSERT`, `UPDATE` or `DELETE` on this connection.
    public var changes: Int { database.changes }

    /// Rows changed by all `INSERT`, `UPDATE` and `DELETE` statements since opening.
    public var totalChanges: Int { Int(sqlite3_total_changes(database.pointer)) }

    /// Whether a transaction is open (SQLite is not in autocommit mode).
    public var isInTransaction: Bool { sqlite3_get_autocommit(database.pointer) == 0 }

    /// How long a statement waits for another connection's lock before failing with
    /// `SQLITE_BUSY`; zero (the default) fails at once. Whole milliseconds.
    public var busyTimeout: Duration = .zero {
        didSet {
            let (seconds, attoseconds) = busyTimeout.components
            let milliseconds = max(0, seconds) * 1000 + max(0, attoseconds) / 1_000_000_000_000_000
            sqlite3_busy_timeout(database.pointer, Int32(clamping: milliseconds))
        }
    }
}
