/// A result row as the stores read their records from it (`StoredUser(row:)` and the others
/// in `Rows/`): columns by position from 0, each accessor throwing when the value is NULL
/// where it may not be, or of another type. SQLite's and PostgreSQL's rows both conform, so
/// each record's columns are read in one place for both stores.
package protocol StoreRow {
    /// An integer column.
    func int64(_ column: Int) throws -> Int64
    /// An integer column that fits in `Int`.
    func int(_ column: Int) throws -> Int
    /// A boolean column (an integer 0 or 1 in SQLite).
    func bool(_ column: Int) throws -> Bool
    /// A text column.
    func string(_ column: Int) throws -> String
    /// A blob (`bytea`) column.
    func bytes(_ column: Int) throws -> [UInt8]
    /// An integer column that may be NULL.
    func optionalInt64(_ column: Int) throws -> Int64?
    /// An integer column that may be NULL and fits in `Int`.
    func optionalInt(_ column: Int) throws -> Int?
    /// A text column that may be NULL.
    func optionalString(_ column: Int) throws -> String?
}
