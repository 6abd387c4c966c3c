/// One SQLite value, in SQLite's five storage classes.
public enum SQLiteValue: Sendable, Hashable, CustomStringConvertible {
    /// SQL `NULL`.
    case null
    /// A 64-bit signed integer.
    case integer(Int64)
    /// An IEEE double.
    case real(Double)
    /// UTF-8 text.
    case text(String)
    /// Raw bytes.
    case blob([UInt8])

    /// Whether this is SQL `NULL`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// SQLite's name for the storage class, for error messages.
    var typeName: String {
        switch self {
        case .null: return "NULL"
        case .integer: return "INTEGER"
        case .real: return "REAL"
        case .text: return "TEXT"
        case .blob: return "BLOB"
        }
    }

    /// A short rendering for tests and logs; blobs show their length, not their bytes.
    public var description: String {
        switch self {
        case .null: return "NULL"
        case .integer(let value): return String(value)
        case .real(let value): return String(value)
        case .text(let value): return "'\(value)'"
        case .blob(let value): return "<\(value.count) bytes>"
        }
    }
}

extension SQLiteValue: SQLiteBindable {
    /// The value itself.
    public var sqliteValue: SQLiteValue { self }
}
