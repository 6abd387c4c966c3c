import ParleyCore

extension StoreError {
    /// A storage failure for the logs: what was being done and what PostgreSQL said. Bound
    /// values never appear: the SQL and the error's DETAIL field (which can quote them) are
    /// left out.
    static func postgres(_ error: PostgresError, during operation: String) -> StoreError {
        .failure("\(operation): PostgreSQL: \(error)")
    }

    /// `error` as callers of the store see it: PostgreSQL's errors become `failure` (a
    /// duplicate of a constraint in `conflicts` becomes that `conflict`), anything else (a
    /// `StoreError`, or the caller's own error thrown from its closure) is kept.
    static func translating(_ error: any Error, during operation: String) -> any Error {
        guard let error = error as? PostgresError else { return error }
        if error.isUniqueViolation, let constraint = error.constraint,
           let conflict = PostgresStoreSchema.conflicts[constraint] {
            return StoreError.conflict(conflict)
        }
        return postgres(error, during: operation)
    }

    /// Runs `body`, translating its PostgreSQL errors; the idiom of every store method.
    @discardableResult
    static func mapping<T>(_ operation: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw translating(error, during: operation)
        }
    }
}
