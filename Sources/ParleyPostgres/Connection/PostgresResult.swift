internal import CPostgres
import ParleyCore

/// The rows (or command status) of one statement, in libpq's binary result format. Owns the
/// `PGresult`, freed in deinit; rows read from it are valid while it lives.
final class PostgresResult {
    private let handle: OpaquePointer
    /// Rows returned.
    let rowCount: Int

    /// Takes ownership of a successful result.
    init(handle: OpaquePointer) {
        self.handle = handle
        rowCount = Int(PQntuples(handle))
    }

    deinit {
        PQclear(handle)
    }

    /// The command tag, such as `COMMIT`, `ROLLBACK` or `INSERT 0 1`.
    var commandStatus: String {
        guard let status = PQcmdStatus(handle) else { return "" }
        return String(cString: status)
    }

    /// Rows inserted, updated or deleted by the statement (0 for others).
    var affectedRows: Int {
        guard let text = PQcmdTuples(handle) else { return 0 }
        return Int(String(cString: text)) ?? 0
    }

    /// Row `index` (from 0).
    func row(_ index: Int) -> PostgresRow {
        PostgresRow(result: self, index: Int32(index))
    }

    /// Every row, mapped.
    func map<T>(_ transform: (PostgresRow) throws -> T) rethrows -> [T] {
        var mapped: [T] = []
        mapped.reserveCapacity(rowCount)
        for index in 0..<rowCount {
            mapped.append(try transform(row(index)))
        }
        return mapped
    }

    // MARK: Column access for PostgresRow

    func isNull(row: Int32, column: Int32) -> Bool {
        PQgetisnull(handle, row, column) != 0
    }

    func type(column: Int32) -> UInt32 {
        PQftype(handle, column)
    }

    /// The raw binary value of a non-null field.
    func bytes(row: Int32, column: Int32) -> UnsafeRawBufferPointer {
        let length = Int(PQgetlength(handle, row, column))
        guard let start = PQgetvalue(handle, row, column), length > 0 else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        return UnsafeRawBufferPointer(start: start, count: length)
    }

    var columnCount: Int { Int(PQnfields(handle)) }
}
