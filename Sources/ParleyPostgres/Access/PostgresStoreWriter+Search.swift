import ParleyCore
import ParleyProtocol

// `UserSearchWriter` (schema version 14).
extension PostgresStoreWriter {
    func setFindable(_ user: UserID, _ findable: Bool) throws {
        if findable {
            try run("setFindable", "DELETE FROM unfindable_users WHERE user_id = $1", user.rawValue)
        } else {
            try run("setFindable", "INSERT INTO unfindable_users (user_id) VALUES ($1) ON CONFLICT DO NOTHING", user.rawValue)
        }
    }
}
