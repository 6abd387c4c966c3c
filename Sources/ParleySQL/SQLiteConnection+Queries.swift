extension SQLiteConnection {
    /// Runs one statement from the statement cache with `bindings` and returns the rows it
    /// changed (see `SQLiteStatement.run`).
    @discardableResult
    public func run(_ sql: String, _ bindings: (any SQLiteBindable)?...) throws -> Int {
        try cachedStatement(sql).run(bindings: bindings)
    }

    /// Runs one query from the statement cache with `bindings`, mapping each row with `row`.
    public func query<T>(_ sql: String, _ bindings: (any SQLiteBindable)?..., row: (SQLiteRow) throws -> T) throws -> [T] {
        try cachedStatement(sql).query(bindings: bindings, row: row)
    }

    /// Like `query`, for the first row only; nil when there is none.
    public func queryFirst<T>(_ sql: String, _ bindings: (any SQLiteBindable)?..., row: (SQLiteRow) throws -> T) throws -> T? {
        try cachedStatement(sql).queryFirst(bindings: bindings, row: row)
    }
}
