import ParleyCore
import ParleyProtocol

// `LastSeenReader` (schema version 15).
extension PostgresStoreQuerying {
    func lastSeen(of users: [UserID]) throws -> [UserID: Int64] {
        guard !users.isEmpty else { return [:] }
        // Decimal integers only, never caller text: safe to build the array literal by hand.
        let list = "{" + users.map { String($0.rawValue) }.joined(separator: ",") + "}"
        let rows = try query("lastSeen(of:)", "SELECT user_id, seen_at FROM last_seen WHERE user_id = ANY ($1::bigint[])",
                             list) { row in (UserID(rawValue: try row.int64(0)), try row.int64(1)) }
        return Dictionary(rows, uniquingKeysWith: { a, _ in a })
    }
}
