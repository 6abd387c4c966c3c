import ParleyCore
import ParleyProtocol

extension StoredSwipe {
    /// The `swipes` columns that `init(row:)` reads, in its order.
    package static let selectColumns = "user_id, target_id, liked, created_at"

    /// A swipe from a row of `selectColumns`.
    package init<Row: StoreRow>(row: Row) throws {
        self.init(userID: UserID(try row.int64(0)),
                  targetID: UserID(try row.int64(1)),
                  liked: try row.bool(2),
                  createdAt: try row.int64(3))
    }
}
