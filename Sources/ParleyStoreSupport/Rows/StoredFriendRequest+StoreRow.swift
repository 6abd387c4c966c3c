import ParleyCore
import ParleyProtocol

extension StoredFriendRequest {
    /// The `friend_requests` columns that `init(row:)` reads, in its order.
    package static let selectColumns = "id, from_id, to_id, greeting, created_at"

    /// A request from a row of `selectColumns`.
    package init<Row: StoreRow>(row: Row) throws {
        self.init(id: try row.string(0),
                  fromID: UserID(try row.int64(1)),
                  toID: UserID(try row.int64(2)),
                  greeting: try row.optionalString(3),
                  createdAt: try row.int64(4))
    }
}
