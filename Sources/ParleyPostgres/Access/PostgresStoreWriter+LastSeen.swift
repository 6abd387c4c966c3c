import ParleyCore
import ParleyProtocol

// `LastSeenWriter` (schema version 15).
extension PostgresStoreWriter {
    func saveLastSeen(of user: UserID, at time: Int64) throws {
        // A deleted account keeps nothing (its connections close after its erasure).
        try run("saveLastSeen", """
            INSERT INTO last_seen (user_id, seen_at) SELECT id, $2 FROM users WHERE id = $1 AND deleted_at IS NULL
            ON CONFLICT (user_id) DO UPDATE SET seen_at = greatest(last_seen.seen_at, excluded.seen_at)
            """, user.rawValue, time)
    }
}
