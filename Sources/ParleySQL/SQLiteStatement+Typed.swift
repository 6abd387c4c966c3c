import CSQLite

/// Binding and reading with concrete types, for statements a caller prepares once and runs
/// very often (the writer thread's insert of a message). The general `bind`, `run` and
/// `query` take `any SQLiteBindable` in an array and map rows through generic closures: per
/// call that is an array, an existential box per value and generic code that cannot be
/// specialised across the module boundary. These go straight to SQLite.
///
/// The caller drives the statement: `reset()`, bind every parameter, `step()`, read the row,
/// and `reset()` again (also when something throws, so that the statement does not keep its
/// read transaction open).
extension SQLiteStatement {
    /// Binds an integer to parameter `index` (from 1).
    public func bind(integer value: Int64, at index: Int32) throws {
        try checkBinding(sqlite3_bind_int64(pointer, index, value))
    }

    /// Binds text to parameter `index` (from 1); nil binds `NULL`. SQLite copies the bytes.
    public func bind(text value: String?, at index: Int32) throws {
        guard var value else {
            try checkBinding(sqlite3_bind_null(pointer, index))
            return
        }
        try checkBinding(value.withUTF8 { parley_sqlite3_bind_text(pointer, index, $0.baseAddress, UInt64($0.count)) })
    }

    /// Binds an integer, or `NULL` for nil, to parameter `index` (from 1).
    public func bind(integer value: Int64?, at index: Int32) throws {
        guard let value else {
            try checkBinding(sqlite3_bind_null(pointer, index))
            return
        }
        try checkBinding(sqlite3_bind_int64(pointer, index, value))
    }

    /// Column `index` of the current row as an integer (`NULL` reads as 0, text as SQLite
    /// converts it): for columns the statement itself guarantees to be integers, such as a
    /// `RETURNING` of an `INTEGER NOT NULL` column.
    public func integer(at index: Int32) -> Int64 {
        precondition(hasRow, "no current row: call step() and check that it returned true")
        return sqlite3_column_int64(pointer, index)
    }
}
