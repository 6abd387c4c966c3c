import ParleyCore
import ParleyProtocol
import ParleySQL

// `LastSeenWriter` (schema version 16).
extension SQLiteStoreWriter {
    func saveLastSeen(of user: UserID, at time: Int64) throws {
        try StoreError.mapping("saveLastSeen") {
            try connection.run("""
                INSERT INTO last_seen (user_id, seen_at) VALUES (?1, ?2)
                ON CONFLICT (user_id) DO UPDATE SET seen_at = max(seen_at, excluded.seen_at)
                """, user.rawValue, time)
        }
    }
}
