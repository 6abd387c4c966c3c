/// The current row of a running statement, handed to the closures of `query` and `queryFirst`.
///
/// It reads through to the statement, so it is valid only inside the closure that received
/// it: keep the values, not the row.
public struct SQLiteRow: SQLiteColumnReading {
    let statement: SQLiteStatement

    /// The SQL of the statement this row came from.
    public var sql: String { statement.sql }
    /// The number of columns.
    public var columnCount: Int { statement.columnCount }
    /// The name of column `index`.
    public func columnName(at index: Int) -> String { statement.columnName(at: index) }
    /// The index of the column called `name` (case-insensitive).
    public func columnIndex(named name: String) throws -> Int { try statement.columnIndex(named: name) }
    /// The value of column `index`, whatever its type.
    public func value(at index: Int) -> SQLiteValue { statement.value(at: index) }
}

@available(*, unavailable, message: "a row is valid only inside the closure that received it")
extension SQLiteRow: Sendable {}
