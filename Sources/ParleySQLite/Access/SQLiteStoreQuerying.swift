import ParleyCore
import ParleyProtocol
import ParleySQL

/// The queries of `StoreReader`, written once for both the readers' connections and the
/// writer's (a write transaction reads its own uncommitted changes).
///
/// Every statement comes from the connection's statement cache, so each SQL text is parsed
/// and planned once per connection, not once per call.
protocol SQLiteStoreQuerying: StoreReader {
    /// The connection to query; used only on the thread that owns it.
    var connection: SQLiteConnection { get }
}

extension SQLiteStoreQuerying {
    func user(id: UserID) throws -> StoredUser? {
        try StoreError.mapping("user(id:)") {
            try connection.queryFirst("SELECT \(StoredUser.selectColumns) FROM users WHERE id = ?",
                                      id.rawValue, row: StoredUser.init(row:))
        }
    }

    func user(username: String) throws -> StoredUser? {
        try StoreError.mapping("user(username:)") {
            try connection.queryFirst("SELECT \(StoredUser.selectColumns) FROM users WHERE username_key = ?",
                                      StoredUser.key(for: username), row: StoredUser.init(row:))
        }
    }

    func user(phone: String) throws -> StoredUser? {
        try StoreError.mapping("user(phone:)") {
            try connection.queryFirst("SELECT \(StoredUser.selectColumns) FROM users WHERE phone = ?",
                                      phone, row: StoredUser.init(row:))
        }
    }

    func session(tokenHash: [UInt8]) throws -> StoredSession? {
        try StoreError.mapping("session(tokenHash:)") {
            try connection.queryFirst("SELECT \(StoredSession.selectColumns) FROM sessions WHERE token_hash = ?",
                                      tokenHash, row: StoredSession.init(row:))
        }
    }

    func sessions(of userID: UserID) throws -> [StoredSession] {
        try StoreError.mapping("sessions(of:)") {
            try connection.query("SELECT \(StoredSession.selectColumns) FROM sessions WHERE user_id = ?",
                                 userID.rawValue, row: StoredSession.init(row:))
        }
    }

    func media(id: String) throws -> StoredMedia? {
        try StoreError.mapping("media(id:)") {
            try connection.queryFirst("SELECT \(StoredMedia.selectColumns) FROM media WHERE id = ?",
                                      id, row: StoredMedia.init(row:))
        }
    }

    func mediaUsage(of owner: UserID, since: Int64) throws -> MediaUsage {
        try StoreError.mapping("mediaUsage(of:since:)") {
            try connection.queryFirst("""
                SELECT coalesce(sum(size), 0), coalesce(sum(CASE WHEN created_at >= ?1 THEN size END), 0),
                       min(CASE WHEN created_at >= ?1 THEN created_at END)
                FROM media WHERE owner_id = ?2
                """, since, owner.rawValue) { row in
                MediaUsage(heldBytes: try row.int64(0), recentBytes: try row.int64(1), oldestRecentAt: try row.optionalInt64(2))
            } ?? MediaUsage(heldBytes: 0, recentBytes: 0, oldestRecentAt: nil)
        }
    }

    func unreferencedMedia(createdBefore: Int64, limit: Int) throws -> [StoredMedia] {
        try StoreError.mapping("unreferencedMedia") {
            try connection.query("""
                SELECT \(StoredMedia.selectColumns) FROM media
                WHERE referenced_at IS NULL AND created_at < ? ORDER BY created_at LIMIT ?
                """, createdBefore, limit, row: StoredMedia.init(row:))
        }
    }

    func smsChallenge(phone: String) throws -> SMSChallenge? {
        try StoreError.mapping("smsChallenge(phone:)") {
            try connection.queryFirst("SELECT \(SMSChallenge.selectColumns) FROM sms_challenges WHERE phone = ?",
                                      phone, row: SMSChallenge.init(row:))
        }
    }

    func smsSendTimes(phone: String, since: Int64) throws -> [Int64] {
        try StoreError.mapping("smsSendTimes(phone:since:)") {
            try connection.query("SELECT sent_at FROM sms_sends WHERE phone = ? AND sent_at > ? ORDER BY sent_at",
                                 phone, since) { try $0.int64(0) }
        }
    }
}

extension SQLiteStoreQuerying {
    func scramCredentials(of userID: UserID) throws -> [StoredSCRAMCredential] {
        try StoreError.mapping("scramCredentials(of:)") {
            try connection.query("""
                SELECT mechanism, salt, iterations, stored_key, server_key FROM scram_credentials
                WHERE user_id = ? ORDER BY mechanism
                """, userID.rawValue, row: { row in
                StoredSCRAMCredential(mechanism: try row.string(0), salt: try row.blob(1), iterations: Int(try row.int64(2)),
                                      storedKey: try row.blob(3), serverKey: try row.blob(4))
            })
        }
    }

    func xmppPrivateItems(of userID: UserID, keyPrefix: String) throws -> [String: String] {
        try StoreError.mapping("xmppPrivateItems(of:keyPrefix:)") {
            // `substr` counts characters, as Swift's `hasPrefix` does on the way in.
            let rows = try connection.query("""
                SELECT item_key, value FROM xmpp_private_items
                WHERE user_id = ? AND substr(item_key, 1, length(?)) = ?
                """, userID.rawValue, keyPrefix, keyPrefix, row: { row in (try row.string(0), try row.string(1)) })
            return Dictionary(rows, uniquingKeysWith: { first, _ in first })
        }
    }
}
