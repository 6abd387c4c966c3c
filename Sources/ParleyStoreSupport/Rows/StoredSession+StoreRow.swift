import ParleyCore
import ParleyProtocol

extension StoredSession {
    /// The `sessions` columns that `init(row:)` reads, in its order.
    package static let selectColumns = "id, user_id, token_hash, created_at, last_seen_at, user_agent, device_name, last_address"

    /// A session from a row of `selectColumns`.
    package init<Row: StoreRow>(row: Row) throws {
        self.init(id: try row.string(0),
                  userID: UserID(try row.int64(1)),
                  tokenHash: try row.bytes(2),
                  createdAt: try row.int64(3),
                  lastSeenAt: try row.int64(4),
                  userAgent: try row.optionalString(5),
                  deviceName: try row.optionalString(6),
                  lastAddress: try row.optionalString(7))
    }
}
