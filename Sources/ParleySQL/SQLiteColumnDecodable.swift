/// A Swift type that a result column can be read as.
///
/// Reading is strict: an `Int64` is read only from an integer, a `String` only from text and
/// `[UInt8]` only from a blob, and `NULL` only into an `Optional`. A value of another type is
/// an error (`SQLITE_MISMATCH`) rather than a silent conversion, because on data from disk a
/// surprise type means a schema or code bug that should surface. `Double` also accepts
/// integers, since SQLite may store a whole-number real as an integer.
public protocol SQLiteColumnDecodable {
    /// The value, or nil if `value` cannot be read as this type.
    init?(sqliteValue value: SQLiteValue)
}

extension Int64: SQLiteColumnDecodable {
    /// Reads an integer.
    public init?(sqliteValue value: SQLiteValue) {
        guard case .integer(let integer) = value else { return nil }
        self = integer
    }
}

extension Int: SQLiteColumnDecodable {
    /// Reads an integer that fits in `Int`.
    public init?(sqliteValue value: SQLiteValue) {
        guard case .integer(let integer) = value, let fitted = Int(exactly: integer) else { return nil }
        self = fitted
    }
}

extension Int32: SQLiteColumnDecodable {
    /// Reads an integer that fits in `Int32`.
    public init?(sqliteValue value: SQLiteValue) {
        guard case .integer(let integer) = value, let fitted = Int32(exactly: integer) else { return nil }
        self = fitted
    }
}

extension Double: SQLiteColumnDecodable {
    /// Reads a real, or an integer as a real.
    public init?(sqliteValue value: SQLiteValue) {
        switch value {
        case .real(let real): self = real
        case .integer(let integer): self = Double(integer)
        default: return nil
        }
    }
}

extension Bool: SQLiteColumnDecodable {
    /// Reads an integer: zero is false, anything else true.
    public init?(sqliteValue value: SQLiteValue) {
        guard case .integer(let integer) = value else { return nil }
        self = integer != 0
    }
}

extension String: SQLiteColumnDecodable {
    /// Reads text.
    public init?(sqliteValue value: SQLiteValue) {
        guard case .text(let text) = value else { return nil }
        self = text
    }
}

extension Array: SQLiteColumnDecodable where Element == UInt8 {
    /// Reads a blob.
    public init?(sqliteValue value: SQLiteValue) {
        guard case .blob(let bytes) = value else { return nil }
        self = bytes
    }
}

extension SQLiteValue: SQLiteColumnDecodable {
    /// Reads any value as it is.
    public init?(sqliteValue value: SQLiteValue) {
        self = value
    }
}

extension Optional: SQLiteColumnDecodable where Wrapped: SQLiteColumnDecodable {
    /// Reads `NULL` as nil, anything else as `Wrapped`.
    public init?(sqliteValue value: SQLiteValue) {
        if case .null = value {
            self = .none
            return
        }
        guard let wrapped = Wrapped(sqliteValue: value) else { return nil }
        self = .some(wrapped)
    }
}
