import ParleyCore
import ParleyProtocol
import ParleySQL

// `LastSeenReader` (schema version 16).
extension SQLiteStoreQuerying {
    func lastSeen(of users: [UserID]) throws -> [UserID: Int64] {
        guard !users.isEmpty else { return [:] }
        // Decimal integers only, never caller text: safe to build the JSON by hand.
        let list = "[" + users.map { String($0.rawValue) }.joined(separator: ",") + "]"
        return try StoreError.mapping("lastSeen(of:)") {
            let rows = try connection.query("SELECT user_id, seen_at FROM last_seen WHERE user_id IN (SELECT value FROM json_each(?))",
                                            list) { row in (UserID(rawValue: try row.int64(0)), try row.int64(1)) }
            return Dictionary(rows, uniquingKeysWith: { a, _ in a })
        }
    }
}
