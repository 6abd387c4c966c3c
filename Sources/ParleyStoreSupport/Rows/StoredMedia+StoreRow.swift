import ParleyCore
import ParleyProtocol

extension StoredMedia {
    /// The `media` columns that `init(row:)` reads, in its order.
    package static let selectColumns = "id, owner_id, type, width, height, size, created_at"

    /// A media record from a row of `selectColumns`.
    package init<Row: StoreRow>(row: Row) throws {
        let id = try row.string(0)
        let type = try row.string(2)
        guard !type.isEmpty else { throw StoreError.failure("media \(id) has no type") }
        self.init(id: id,
                  ownerID: UserID(try row.int64(1)),
                  type: type,
                  width: try row.int(3),
                  height: try row.int(4),
                  size: try row.int(5),
                  createdAt: try row.int64(6))
    }
}
