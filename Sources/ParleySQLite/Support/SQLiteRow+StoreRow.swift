import ParleySQL
import ParleyStoreSupport

/// SQLite rows read by the records' shared initializers (`ParleyStoreSupport/Rows`); the
/// accessors for required columns come with `SQLiteColumnReading`.
extension SQLiteRow: StoreRow {
    package func bytes(_ column: Int) throws -> [UInt8] { try blob(column) }
    package func optionalInt64(_ column: Int) throws -> Int64? { try self.column(column) }
    package func optionalInt(_ column: Int) throws -> Int? { try self.column(column) }
    package func optionalString(_ column: Int) throws -> String? { try self.column(column) }
}
