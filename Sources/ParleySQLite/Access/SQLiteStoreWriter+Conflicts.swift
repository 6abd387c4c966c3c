import ParleyCore
import ParleySQL

extension SQLiteStoreWriter {
    /// A uniqueness rule that a change may break: the name `StoreError.conflict` gives it,
    /// and a query that says whether the stored rows already hold that value.
    typealias UniquenessRule = (name: String, isTaken: () throws -> Bool)

    /// Runs `change`, turning a refused duplicate into `StoreError.conflict` naming the rule
    /// it broke. SQLite's message names the index too, but its wording is not an API, so the
    /// culprit is found by asking the table instead (the write lock keeps the answer exact).
    /// A duplicate no rule explains (a clash of random ids, say) stays a failure.
    @discardableResult
    func refusingDuplicates<T>(_ operation: String, _ rules: [UniquenessRule], _ change: () throws -> T) throws -> T {
        do {
            return try change()
        } catch let error as SQLiteError where error.isUniqueViolation {
            for rule in rules {
                if try StoreError.mapping(operation, rule.isTaken) {
                    throw StoreError.conflict(rule.name)
                }
            }
            throw StoreError.sqlite(error, during: operation)
        } catch {
            throw StoreError.translating(error, during: operation)
        }
    }

    /// Whether `sql` (with `bindings`) returns a row.
    func exists(_ sql: String, _ bindings: (any SQLiteBindable)?...) throws -> Bool {
        try connection.cachedStatement(sql).queryFirst(bindings: bindings) { _ in true } ?? false
    }
}
