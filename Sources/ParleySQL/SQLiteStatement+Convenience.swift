extension SQLiteStatement {
    /// Binds `bindings` (if any are given), runs the statement to the end and returns the
    /// number of rows an `INSERT`, `UPDATE` or `DELETE` changed (0 for other statements).
    ///
    /// With no bindings the current ones are used, so parameters bound one by one still work.
    @discardableResult
    public func run(_ bindings: (any SQLiteBindable)?...) throws -> Int {
        try run(bindings: bindings)
    }

    /// `run` with the bindings as an array.
    @discardableResult
    public func run(bindings: [(any SQLiteBindable)?]) throws -> Int {
        try execute { if !bindings.isEmpty { try bind(bindings) } }
    }

    /// `run` with parameters bound by name.
    @discardableResult
    public func run(named bindings: [String: (any SQLiteBindable)?]) throws -> Int {
        try execute { try bind(named: bindings) }
    }

    /// Binds `bindings` (if any are given), runs the statement and maps each row with `row`.
    ///
    /// The `SQLiteRow` handed to `row` is valid only during that call.
    public func query<T>(_ bindings: (any SQLiteBindable)?..., row: (SQLiteRow) throws -> T) throws -> [T] {
        try query(bindings: bindings, row: row)
    }

    /// `query` with the bindings as an array.
    public func query<T>(bindings: [(any SQLiteBindable)?], row: (SQLiteRow) throws -> T) throws -> [T] {
        try collect(limit: nil, bind: { if !bindings.isEmpty { try bind(bindings) } }, row: row)
    }

    /// Binds `bindings`, then hands each row to `row` for as long as it returns true: a query
    /// whose caller decides row by row when it has read enough (the rest is never computed).
    public func each(bindings: [(any SQLiteBindable)?], row: (SQLiteRow) throws -> Bool) throws {
        reset()
        defer { reset() }
        if !bindings.isEmpty { try bind(bindings) }
        while try step(), try row(SQLiteRow(statement: self)) {}
    }

    /// `query` with parameters bound by name.
    public func query<T>(named bindings: [String: (any SQLiteBindable)?], row: (SQLiteRow) throws -> T) throws -> [T] {
        try collect(limit: nil, bind: { try bind(named: bindings) }, row: row)
    }

    /// Like `query`, for the first row only; nil when there is none.
    public func queryFirst<T>(_ bindings: (any SQLiteBindable)?..., row: (SQLiteRow) throws -> T) throws -> T? {
        try queryFirst(bindings: bindings, row: row)
    }

    /// `queryFirst` with the bindings as an array.
    public func queryFirst<T>(bindings: [(any SQLiteBindable)?], row: (SQLiteRow) throws -> T) throws -> T? {
        try collect(limit: 1, bind: { if !bindings.isEmpty { try bind(bindings) } }, row: row).first
    }

    /// `queryFirst` with parameters bound by name.
    public func queryFirst<T>(named bindings: [String: (any SQLiteBindable)?], row: (SQLiteRow) throws -> T) throws -> T? {
        try collect(limit: 1, bind: { try bind(named: bindings) }, row: row).first
    }

    /// Resets, binds, steps to the end and resets again, so that the statement never stays
    /// open (holding a read transaction) after a call returns, even when it throws.
    private func execute(bind: () throws -> Void) throws -> Int {
        reset()
        defer { reset() }
        try bind()
        while try step() {}
        return isReadOnly ? 0 : database.changes
    }

    private func collect<T>(limit: Int?, bind: () throws -> Void, row: (SQLiteRow) throws -> T) throws -> [T] {
        reset()
        defer { reset() }
        try bind()
        var results: [T] = []
        while results.count < limit ?? Int.max, try step() {
            results.append(try row(SQLiteRow(statement: self)))
        }
        return results
    }
}
