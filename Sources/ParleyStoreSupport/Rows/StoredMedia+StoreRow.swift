import ParleyCore
import ParleyProtocol

extension StoredMedia {
    /// The `media` columns that `init(row:)` reads, in its order.
    package static let selectColumns = "id, owner_id, type, width, height, size, created_at, duration_ms"

    /// A media record from a row of `selectColumns`.
    package init<Row: StoreRow>(row: Row) throws {
        let id = try row.string(0)
        let typeName = try row.string(2)
        guard let type = MediaType(rawValue: typeName) else {
            throw StoreError.failure("media \(id) has an unknown type")
        }
        self.init(id: id,
                  ownerID: UserID(try row.int64(1)),
                  type: type,
                  durationMs: try row.optionalInt(7),
                  width: try row.int(3),
                  height: try row.int(4),
                  size: try row.int(5),
                  createdAt: try row.int64(6))
    }
}
