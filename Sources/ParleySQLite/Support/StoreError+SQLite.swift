import ParleyCore
import ParleySQL

extension StoreError {
    /// A storage failure for the logs: what was being done and what SQLite said. The SQL
    /// text is left out on purpose; SQLite's own messages name tables and columns, never the
    /// bound values, so no user data ends up in the message.
    static func sqlite(_ error: SQLiteError, during operation: String) -> StoreError {
        .failure("\(operation): SQLite error \(error.extendedCode): \(error.message)")
    }

    /// `error` as callers of the store see it: SQLite's errors become `failure`, anything
    /// else (a `StoreError`, or the caller's own error thrown from its closure) is kept.
    static func translating(_ error: any Error, during operation: String) -> any Error {
        if let error = error as? SQLiteError { return sqlite(error, during: operation) }
        if let error = error as? SQLiteMigrationError { return StoreError.failure("\(operation): \(error)") }
        return error
    }

    /// Runs `body`, translating its SQLite errors; the idiom of every store method.
    @discardableResult
    static func mapping<T>(_ operation: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw translating(error, during: operation)
        }
    }
}
