import CSQLite

/// A prepared SQL statement: bind parameters, step through rows, read columns, reset, repeat.
///
/// Get one from `SQLiteConnection.prepare(_:)` or `cachedStatement(_:)`. It is finalized when
/// the last reference goes away, and it keeps its database open until then. Parameters are
/// numbered from 1, as in SQL (`?1`); result columns from 0 (see `SQLiteColumnReading`).
///
/// A statement belongs to its connection's thread: use it only where the connection may be
/// used, and never from two threads at once. It is deliberately not `Sendable`.
public final class SQLiteStatement: SQLiteColumnReading {
    /// The SQL text this statement was prepared from.
    public let sql: String
    /// The `sqlite3_stmt*`; valid until deinit.
    let pointer: OpaquePointer
    /// Keeps the database open while this statement exists.
    let database: SQLiteDatabaseHandle
    /// Whether the last `step()` produced a row that may be read.
    private(set) var hasRow = false
    /// Lower-cased column name → first index with that name, built on first use.
    private var columnIndexes: [String: Int]?

    /// Prepares exactly one statement; trailing SQL other than whitespace and comments is
    /// refused, because silently ignoring it would hide a mistake (use `execute` for scripts).
    init(database: SQLiteDatabaseHandle, sql: String, persistent: Bool) throws {
        var prepared: OpaquePointer?
        var trailing: SQLiteError?
        let flags = persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
        let rc = sql.withCString { text -> Int32 in
            var tail: UnsafePointer<CChar>?
            let rc = sqlite3_prepare_v3(database.pointer, text, -1, flags, &prepared, &tail)
            if rc == SQLITE_OK, let tail, tail.pointee != 0 {
                // Preparing the rest tells apart harmless comments (no statement) from more SQL.
                var extra: OpaquePointer?
                if sqlite3_prepare_v2(database.pointer, tail, -1, &extra, nil) != SQLITE_OK || extra != nil {
                    trailing = .misuse("prepare takes one statement; use execute(_:) for scripts", sql: sql)
                }
                sqlite3_finalize(extra)
            }
            return rc
        }
        guard rc == SQLITE_OK else {
            throw SQLiteError(resultCode: rc, database: database.pointer, sql: sql)
        }
        guard let prepared else {
            throw SQLiteError.misuse("no SQL statement to prepare", sql: sql)
        }
        if let trailing {
            sqlite3_finalize(prepared)
            throw trailing
        }
        self.pointer = prepared
        self.database = database
        self.sql = sql
    }

    deinit {
        sqlite3_finalize(pointer)
    }

    // MARK: Parameters

    /// The number of parameters (the largest parameter index).
    public var parameterCount: Int { Int(sqlite3_bind_parameter_count(pointer)) }

    /// Binds `value` to parameter `index` (from 1); `nil` binds `NULL`.
    public func bind(_ value: (any SQLiteBindable)?, at index: Int) throws {
        guard let position = Int32(exactly: index), index >= 1, index <= parameterCount else {
            throw SQLiteError.range("no parameter \(index); the statement has \(parameterCount)", sql: sql)
        }
        let rc: Int32
        switch value?.sqliteValue ?? .null {
        case .null:
            rc = sqlite3_bind_null(pointer, position)
        case .integer(let integer):
            rc = sqlite3_bind_int64(pointer, position, integer)
        case .real(let real):
            rc = sqlite3_bind_double(pointer, position, real)
        case .text(var text):
            rc = text.withUTF8 { parley_sqlite3_bind_text(pointer, position, $0.baseAddress, UInt64($0.count)) }
        case .blob(let bytes):
            rc = bytes.withUnsafeBytes { parley_sqlite3_bind_blob(pointer, position, $0.baseAddress, UInt64($0.count)) }
        }
        try checkBinding(rc)
    }

    /// Throws for a failed `sqlite3_bind_*` result code.
    func checkBinding(_ rc: Int32) throws {
        guard rc == SQLITE_OK else {
            if rc == SQLITE_MISUSE {
                throw SQLiteError.misuse("cannot bind while the statement is running; reset() it first", sql: sql)
            }
            throw SQLiteError(resultCode: rc, database: database.pointer, sql: sql)
        }
    }

    /// Binds `value` to the parameter called `name`: `":id"`, `"@id"`, `"$id"`, or `"id"`
    /// for whichever of those the SQL uses.
    public func bind(_ value: (any SQLiteBindable)?, named name: String) throws {
        try bind(value, at: parameterIndex(named: name))
    }

    /// Binds every parameter in order; there must be exactly `parameterCount` values, so that
    /// a forgotten parameter is an error rather than a silent `NULL`.
    public func bind(_ values: [(any SQLiteBindable)?]) throws {
        guard values.count == parameterCount else {
            throw SQLiteError.range("\(values.count) values for \(parameterCount) parameters", sql: sql)
        }
        for (offset, value) in values.enumerated() {
            try bind(value, at: offset + 1)
        }
    }

    /// Binds every parameter by name; there must be a value for each of `parameterCount`.
    public func bind(named values: [String: (any SQLiteBindable)?]) throws {
        guard values.count == parameterCount else {
            throw SQLiteError.range("\(values.count) values for \(parameterCount) parameters", sql: sql)
        }
        for (name, value) in values {
            try bind(value, named: name)
        }
    }

    /// Sets every parameter back to `NULL`.
    public func clearBindings() {
        sqlite3_clear_bindings(pointer)
    }

    /// The index (from 1) of the parameter called `name`, trying the `:`, `@` and `$`
    /// prefixes when `name` has none.
    func parameterIndex(named name: String) throws -> Int {
        var index = sqlite3_bind_parameter_index(pointer, name)
        if index == 0, let first = name.first, first != ":", first != "@", first != "$" {
            for prefix in [":", "@", "$"] where index == 0 {
                index = sqlite3_bind_parameter_index(pointer, prefix + name)
            }
        }
        guard index > 0 else {
            throw SQLiteError.range("no parameter named \(name)", sql: sql)
        }
        return Int(index)
    }

    // MARK: Execution

    /// Runs the statement to its next row. Returns true when a row is ready to read and false
    /// when the statement has finished.
    public func step() throws -> Bool {
        let rc = sqlite3_step(pointer)
        switch rc {
        case SQLITE_ROW:
            hasRow = true
            return true
        case SQLITE_DONE:
            hasRow = false
            return false
        default:
            hasRow = false
            throw SQLiteError(resultCode: rc, database: database.pointer, sql: sql)
        }
    }

    /// Rewinds the statement so it can run again; bindings are kept.
    ///
    /// A statement left mid-way keeps its read transaction open (and so stops WAL checkpoints
    /// from finishing), which is why `run` and `query` always reset when they are done.
    public func reset() {
        // The result repeats the error of the last step, which step() has already thrown.
        sqlite3_reset(pointer)
        hasRow = false
    }

    /// Whether the statement has started and not yet been reset or finished.
    public var isRunning: Bool { sqlite3_stmt_busy(pointer) != 0 }

    /// Whether the statement cannot change the database (a plain `SELECT`, for example).
    public var isReadOnly: Bool { sqlite3_stmt_readonly(pointer) != 0 }

    // MARK: Columns

    /// The number of result columns.
    public var columnCount: Int { Int(sqlite3_column_count(pointer)) }

    /// The name of column `index` (its `AS` alias, if any).
    public func columnName(at index: Int) -> String {
        precondition(index >= 0 && index < columnCount, "column \(index) out of range 0..<\(columnCount)")
        return sqlite3_column_name(pointer, Int32(index)).map { String(cString: $0) } ?? ""
    }

    /// The names of all result columns, in order.
    public var columnNames: [String] { (0..<columnCount).map { columnName(at: $0) } }

    /// The index of the column called `name` (case-insensitive; the first one if repeated).
    public func columnIndex(named name: String) throws -> Int {
        if columnIndexes == nil {
            var indexes: [String: Int] = [:]
            for index in 0..<columnCount where indexes[columnName(at: index).lowercased()] == nil {
                indexes[columnName(at: index).lowercased()] = index
            }
            columnIndexes = indexes
        }
        guard let index = columnIndexes?[name.lowercased()] else {
            throw SQLiteError.range("no result column named \(name)", sql: sql)
        }
        return index
    }

    /// The value of column `index` in the current row, whatever its type.
    public func value(at index: Int) -> SQLiteValue {
        precondition(hasRow, "no current row: call step() and check that it returned true")
        precondition(index >= 0 && index < columnCount, "column \(index) out of range 0..<\(columnCount)")
        let column = Int32(index)
        switch sqlite3_column_type(pointer, column) {
        case SQLITE_INTEGER:
            return .integer(sqlite3_column_int64(pointer, column))
        case SQLITE_FLOAT:
            return .real(sqlite3_column_double(pointer, column))
        case SQLITE_TEXT:
            // The pointer must be fetched before the length, as SQLite documents.
            let text = sqlite3_column_text(pointer, column)
            let count = Int(sqlite3_column_bytes(pointer, column))
            guard let text else { return .text("") }
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            let bytes = sqlite3_column_blob(pointer, column)
            let count = Int(sqlite3_column_bytes(pointer, column))
            guard let bytes, count > 0 else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
        default:
            return .null
        }
    }
}

@available(*, unavailable, message: "a statement belongs to its connection's thread")
extension SQLiteStatement: Sendable {}
