import ParleyCore
import ParleyProtocol
import ParleySQL

// `UserSearchWriter` (schema version 15).
extension SQLiteStoreWriter {
    func setFindable(_ user: UserID, _ findable: Bool) throws {
        try StoreError.mapping("setFindable") {
            if findable {
                try connection.run("DELETE FROM unfindable_users WHERE user_id = ?", user.rawValue)
            } else {
                try connection.run("INSERT INTO unfindable_users (user_id) VALUES (?) ON CONFLICT DO NOTHING", user.rawValue)
            }
        }
    }
}
