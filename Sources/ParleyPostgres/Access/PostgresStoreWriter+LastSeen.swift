import ParleyCore
import ParleyProtocol

// `LastSeenWriter` (schema version 15).
extension PostgresStoreWriter {
    func saveLastSeen(of user: UserID, at time: Int64) throws {
        try run("saveLastSeen", """
            INSERT INTO last_seen (user_id, seen_at) VALUES ($1, $2)
            ON CONFLICT (user_id) DO UPDATE SET seen_at = greatest(last_seen.seen_at, excluded.seen_at)
            """, user.rawValue, time)
    }
}
