import ParleyCore
import ParleyProtocol

extension StoredPushTarget {
    /// The `push_targets` columns that `init(row:)` reads, in its order.
    package static let selectColumns = "id, user_id, session_id, kind, endpoint, p256dh, auth, app_id, pushkey, created_at"

    /// A target from a row of `selectColumns`.
    package init<Row: StoreRow>(row: Row) throws {
        guard let kind = Kind(rawValue: try row.string(3)) else { throw StoreError.failure("push_targets.kind: unknown value") }
        self.init(id: try row.string(0), userID: UserID(try row.int64(1)), sessionID: try row.string(2), kind: kind,
                  endpoint: try row.string(4), p256dh: try row.bytes(5), auth: try row.bytes(6), appID: try row.string(7),
                  pushkey: try row.string(8), createdAt: try row.int64(9))
    }
}
