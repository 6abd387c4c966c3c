import ParleyCore
import ParleyProtocol

extension StoredUser {
    /// The `users` columns that `init(row:)` reads, in its order.
    package static let selectColumns =
        "id, username, password_hash, phone, nickname, avatar, signature, age, hobbies, created_at, deleted_at"

    /// A user from a row of `selectColumns`.
    package init<Row: StoreRow>(row: Row) throws {
        let id = try row.int64(0)
        self.init(id: UserID(id),
                  username: try row.optionalString(1),
                  passwordHash: try row.optionalString(2),
                  phone: try row.optionalString(3),
                  nickname: try row.optionalString(4),
                  avatar: try row.optionalString(5),
                  signature: try row.optionalString(6),
                  age: try row.optionalInt(7),
                  hobbies: try HobbiesCoding.decode(row.string(8), userID: id),
                  createdAt: try row.int64(9),
                  deletedAt: try row.optionalInt64(10))
    }

    /// The key that makes usernames unique without regard to case: Swift's lowercasing, the
    /// same in both stores, so that they agree on which names collide.
    package static func key(for username: String) -> String {
        username.lowercased()
    }
}
