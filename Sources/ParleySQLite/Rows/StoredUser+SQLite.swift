import ParleyCore
import ParleyProtocol
import ParleySQL
import ParleyStoreSupport

extension StoredUser {
    /// The `users` columns that `init(row:)` reads, in its order.
    static let selectColumns =
        "id, username, password_hash, phone, nickname, avatar, signature, age, hobbies, created_at"

    /// A user from a row of `selectColumns`.
    init(row: SQLiteRow) throws {
        let id = try row.int64(0)
        self.init(id: UserID(id),
                  username: try row.column(1),
                  passwordHash: try row.column(2),
                  phone: try row.column(3),
                  nickname: try row.column(4),
                  avatar: try row.column(5),
                  signature: try row.column(6),
                  age: try row.column(7),
                  hobbies: try HobbiesCoding.decode(row.string(8), userID: id),
                  createdAt: try row.int64(9))
    }

    /// The key that makes usernames unique without regard to case.
    static func key(for username: String) -> String {
        username.lowercased()
    }
}
