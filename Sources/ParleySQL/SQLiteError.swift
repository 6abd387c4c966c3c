import CSQLite

/// A failure reported by SQLite, or a misuse of this wrapper that SQLite would have reported
/// as such (a wrong column type, an unknown parameter name).
///
/// `code` is SQLite's primary result code (`SQLITE_BUSY` = 5, `SQLITE_CONSTRAINT` = 19, …) and
/// `extendedCode` the extended one (`SQLITE_CONSTRAINT_UNIQUE` = 2067, …); the `is…` helpers
/// answer the questions callers actually ask so that they need not know the numbers.
public struct SQLiteError: Error, Equatable, Sendable, CustomStringConvertible {
    /// SQLite's primary result code.
    public let code: Int32
    /// SQLite's extended result code; equal to `code` when SQLite gave no detail.
    public let extendedCode: Int32
    /// SQLite's explanation (`sqlite3_errmsg`), or ours for wrapper-level errors.
    public let message: String
    /// The statement or script that failed, when there was one.
    public let sql: String?

    /// Creates an error from its parts; the primary code is derived from `extendedCode`.
    public init(extendedCode: Int32, message: String, sql: String? = nil) {
        // The low byte of an extended code is always its primary code.
        self.code = extendedCode & 0xFF
        self.extendedCode = extendedCode
        self.message = message
        self.sql = sql
    }

    /// Reads the error SQLite left on `database` after a call returned `resultCode`.
    init(resultCode: Int32, database: OpaquePointer?, sql: String?) {
        var extended = resultCode
        var text: String? = nil
        if let database {
            // sqlite3_extended_errcode describes the most recent failure on this connection,
            // which is the one we were just told about (connections are single-threaded).
            let recorded = sqlite3_extended_errcode(database)
            if recorded & 0xFF == resultCode & 0xFF { extended = recorded }
            text = sqlite3_errmsg(database).map { String(cString: $0) }
        }
        if text == nil || text == "not an error" {
            text = sqlite3_errstr(extended).map { String(cString: $0) } ?? "SQLite error \(extended)"
        }
        self.init(extendedCode: extended, message: text ?? "SQLite error \(extended)", sql: sql)
    }

    /// A wrapper-level error for a column holding a type the caller did not ask for.
    static func mismatch(_ message: String, sql: String) -> SQLiteError {
        SQLiteError(extendedCode: SQLITE_MISMATCH, message: message, sql: sql)
    }

    /// A wrapper-level error for a parameter or column index or name that does not exist.
    static func range(_ message: String, sql: String?) -> SQLiteError {
        SQLiteError(extendedCode: SQLITE_RANGE, message: message, sql: sql)
    }

    /// A wrapper-level error for a call that breaks the rules of the API.
    static func misuse(_ message: String, sql: String?) -> SQLiteError {
        SQLiteError(extendedCode: SQLITE_MISUSE, message: message, sql: sql)
    }

    /// Whether a `UNIQUE`, `PRIMARY KEY`, `NOT NULL`, `CHECK` or `FOREIGN KEY` constraint failed.
    public var isConstraintViolation: Bool { code == SQLITE_CONSTRAINT }

    /// Whether a `UNIQUE` index or `PRIMARY KEY` refused a duplicate: the "already taken" case.
    public var isUniqueViolation: Bool {
        extendedCode == parley_sqlite_constraint_unique || extendedCode == parley_sqlite_constraint_primarykey
    }

    /// Whether a `PRIMARY KEY` (a rowid alias included) refused a duplicate.
    public var isPrimaryKeyViolation: Bool { extendedCode == parley_sqlite_constraint_primarykey }

    /// Whether a `FOREIGN KEY` constraint failed (only checked with `foreign_keys` on).
    public var isForeignKeyViolation: Bool { extendedCode == parley_sqlite_constraint_foreignkey }

    /// Whether a `NOT NULL` constraint failed.
    public var isNotNullViolation: Bool { extendedCode == parley_sqlite_constraint_notnull }

    /// Whether another connection held a lock for longer than the busy timeout (`SQLITE_BUSY`):
    /// the operation may succeed if retried later.
    public var isBusy: Bool { code == SQLITE_BUSY }

    /// The codes, the message and the SQL, for logs.
    public var description: String {
        var text = "SQLite error \(extendedCode): \(message)"
        if let sql { text += " (in: \(sql))" }
        return text
    }
}
