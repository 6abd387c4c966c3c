/// A Swift value that can be bound to a statement parameter.
///
/// Conformances exist for `Int`, `Int64`, `Int32`, `Double`, `Bool` (stored as 0 or 1),
/// `String`, `[UInt8]` (a blob), `SQLiteValue` and `Optional` of any of these (`nil` binds
/// `NULL`). Binding is the only way user data reaches SQL: never interpolate it into the text.
public protocol SQLiteBindable {
    /// The value as SQLite stores it.
    var sqliteValue: SQLiteValue { get }
}

extension Int64: SQLiteBindable {
    /// An integer.
    public var sqliteValue: SQLiteValue { .integer(self) }
}

extension Int: SQLiteBindable {
    /// An integer.
    public var sqliteValue: SQLiteValue { .integer(Int64(self)) }
}

extension Int32: SQLiteBindable {
    /// An integer.
    public var sqliteValue: SQLiteValue { .integer(Int64(self)) }
}

extension Double: SQLiteBindable {
    /// A real.
    public var sqliteValue: SQLiteValue { .real(self) }
}

extension Bool: SQLiteBindable {
    /// 1 or 0: SQLite has no boolean type.
    public var sqliteValue: SQLiteValue { .integer(self ? 1 : 0) }
}

extension String: SQLiteBindable {
    /// Text.
    public var sqliteValue: SQLiteValue { .text(self) }
}

extension Array: SQLiteBindable where Element == UInt8 {
    /// A blob; an empty array stays an empty blob, not `NULL`.
    public var sqliteValue: SQLiteValue { .blob(self) }
}

extension Optional: SQLiteBindable where Wrapped: SQLiteBindable {
    /// The wrapped value, or `NULL`.
    public var sqliteValue: SQLiteValue { self?.sqliteValue ?? .null }
}
