/// Typed access to the columns of the current result row, shared by `SQLiteStatement` and
/// `SQLiteRow` so that both read columns the same way.
///
/// Columns are numbered from 0 (unlike parameters, which SQLite numbers from 1). Reading by
/// an index outside `0..<columnCount`, or when no row is current, is a programming error and
/// traps; reading by a name that is not a result column, or a value of the wrong type, throws.
public protocol SQLiteColumnReading {
    /// The SQL of the statement, for error messages.
    var sql: String { get }
    /// The number of result columns.
    var columnCount: Int { get }
    /// The name of column `index` (its `AS` alias, if any).
    func columnName(at index: Int) -> String
    /// The index of the column called `name` (case-insensitive; the first one if repeated).
    func columnIndex(named name: String) throws -> Int
    /// The value of column `index` in the current row, whatever its type.
    func value(at index: Int) -> SQLiteValue
}

extension SQLiteColumnReading {
    /// Column `index` read as `T`; use an `Optional` type for columns that may be `NULL`.
    public func column<T: SQLiteColumnDecodable>(_ index: Int, as type: T.Type = T.self) throws -> T {
        let value = value(at: index)
        guard let decoded = T(sqliteValue: value) else {
            throw SQLiteError.mismatch(
                "column \(index) (\(columnName(at: index))) holds \(value.typeName), not \(T.self)", sql: sql)
        }
        return decoded
    }

    /// The column called `name` read as `T`; use an `Optional` type for columns that may be `NULL`.
    public func column<T: SQLiteColumnDecodable>(_ name: String, as type: T.Type = T.self) throws -> T {
        try column(columnIndex(named: name), as: type)
    }

    /// Whether column `index` is `NULL`.
    public func isNull(_ index: Int) -> Bool { value(at: index).isNull }
    /// Whether the column called `name` is `NULL`.
    public func isNull(_ name: String) throws -> Bool { try value(at: columnIndex(named: name)).isNull }

    /// Column `index` as an integer.
    public func int64(_ index: Int) throws -> Int64 { try column(index) }
    /// The column called `name` as an integer.
    public func int64(_ name: String) throws -> Int64 { try column(name) }

    /// Column `index` as an integer that fits in `Int`.
    public func int(_ index: Int) throws -> Int { try column(index) }
    /// The column called `name` as an integer that fits in `Int`.
    public func int(_ name: String) throws -> Int { try column(name) }

    /// Column `index` as a real (integers are converted).
    public func double(_ index: Int) throws -> Double { try column(index) }
    /// The column called `name` as a real (integers are converted).
    public func double(_ name: String) throws -> Double { try column(name) }

    /// Column `index` as a boolean stored as an integer.
    public func bool(_ index: Int) throws -> Bool { try column(index) }
    /// The column called `name` as a boolean stored as an integer.
    public func bool(_ name: String) throws -> Bool { try column(name) }

    /// Column `index` as text.
    public func string(_ index: Int) throws -> String { try column(index) }
    /// The column called `name` as text.
    public func string(_ name: String) throws -> String { try column(name) }

    /// Column `index` as a blob.
    public func blob(_ index: Int) throws -> [UInt8] { try column(index) }
    /// The column called `name` as a blob.
    public func blob(_ name: String) throws -> [UInt8] { try column(name) }

    /// The column called `name`, whatever its type.
    public func value(named name: String) throws -> SQLiteValue { try value(at: columnIndex(named: name)) }
}
