import ParleyCore
import ParleyProtocol

/// The queries of `StoreReader`, written once for both the readers' connections and the
/// writers' (a write transaction reads its own uncommitted changes).
protocol PostgresStoreQuerying: StoreReader {
    /// The connection to query; used only on the thread that owns it.
    var connection: PostgresConnection { get }
}

// Statement helpers: each runs one prepared statement with its parameters bound and
// translates errors for the caller.
extension PostgresStoreQuerying {
    /// Every row of `sql`, mapped.
    func query<T>(_ operation: String, _ sql: String, _ parameters: (any PostgresBindable)?...,
                  row: (PostgresRow) throws -> T) throws -> [T] {
        try StoreError.mapping(operation) {
            try connection.query(sql, parameters.map { $0?.postgresValue ?? .null }).map(row)
        }
    }

    /// The first row of `sql`, mapped; nil when there is none.
    func queryFirst<T>(_ operation: String, _ sql: String, _ parameters: (any PostgresBindable)?...,
                       row: (PostgresRow) throws -> T) throws -> T? {
        try StoreError.mapping(operation) {
            let result = try connection.query(sql, parameters.map { $0?.postgresValue ?? .null })
            return result.rowCount > 0 ? try row(result.row(0)) : nil
        }
    }

    /// Runs a change; returns the rows it affected.
    @discardableResult
    func run(_ operation: String, _ sql: String, _ parameters: (any PostgresBindable)?...) throws -> Int {
        try StoreError.mapping(operation) {
            try connection.query(sql, parameters.map { $0?.postgresValue ?? .null }).affectedRows
        }
    }
}

extension PostgresStoreQuerying {
    func user(id: UserID) throws -> StoredUser? {
        try queryFirst("user(id:)", "SELECT \(StoredUser.selectColumns) FROM users WHERE id = $1",
                       id.rawValue, row: StoredUser.init(row:))
    }

    func user(username: String) throws -> StoredUser? {
        try queryFirst("user(username:)", "SELECT \(StoredUser.selectColumns) FROM users WHERE username_key = $1",
                       StoredUser.key(for: username), row: StoredUser.init(row:))
    }

    func user(phone: String) throws -> StoredUser? {
        try queryFirst("user(phone:)", "SELECT \(StoredUser.selectColumns) FROM users WHERE phone = $1",
                       phone, row: StoredUser.init(row:))
    }

    func session(tokenHash: [UInt8]) throws -> StoredSession? {
        try queryFirst("session(tokenHash:)", "SELECT \(StoredSession.selectColumns) FROM sessions WHERE token_hash = $1",
                       tokenHash, row: StoredSession.init(row:))
    }

    func sessions(of userID: UserID) throws -> [StoredSession] {
        try query("sessions(of:)", "SELECT \(StoredSession.selectColumns) FROM sessions WHERE user_id = $1",
                  userID.rawValue, row: StoredSession.init(row:))
    }

    func media(id: String) throws -> StoredMedia? {
        try queryFirst("media(id:)", "SELECT \(StoredMedia.selectColumns) FROM media WHERE id = $1",
                       id, row: StoredMedia.init(row:))
    }

    func mediaUsage(of owner: UserID, since: Int64) throws -> MediaUsage {
        try queryFirst("mediaUsage(of:since:)", """
            SELECT coalesce(sum(size), 0)::bigint, coalesce(sum(CASE WHEN created_at >= $1 THEN size END), 0)::bigint,
                   min(CASE WHEN created_at >= $1 THEN created_at END)
            FROM media WHERE owner_id = $2
            """, since, owner.rawValue) { row in
            MediaUsage(heldBytes: try row.int64(0), recentBytes: try row.int64(1), oldestRecentAt: try row.optionalInt64(2))
        } ?? MediaUsage(heldBytes: 0, recentBytes: 0, oldestRecentAt: nil)
    }

    func unreferencedMedia(createdBefore: Int64, limit: Int) throws -> [StoredMedia] {
        try query("unreferencedMedia", """
            SELECT \(StoredMedia.selectColumns) FROM media
            WHERE referenced_at IS NULL AND created_at < $1 ORDER BY created_at LIMIT $2
            """, createdBefore, limit, row: StoredMedia.init(row:))
    }

    func smsChallenge(phone: String) throws -> SMSChallenge? {
        try queryFirst("smsChallenge(phone:)", "SELECT \(SMSChallenge.selectColumns) FROM sms_challenges WHERE phone = $1",
                       phone, row: SMSChallenge.init(row:))
    }

    func scramCredentials(of userID: UserID) throws -> [StoredSCRAMCredential] {
        try query("scramCredentials(of:)", """
            SELECT mechanism, salt, iterations, stored_key, server_key FROM scram_credentials
            WHERE user_id = $1 ORDER BY mechanism
            """, userID.rawValue) { row in
            StoredSCRAMCredential(mechanism: try row.string(0), salt: try row.bytes(1), iterations: try row.int(2),
                                  storedKey: try row.bytes(3), serverKey: try row.bytes(4))
        }
    }

    func xmppPrivateItems(of userID: UserID, keyPrefix: String) throws -> [String: String] {
        // `left` counts characters, as Swift's `hasPrefix` does on the way in.
        let rows = try query("xmppPrivateItems(of:keyPrefix:)", """
            SELECT item_key, value FROM xmpp_private_items
            WHERE user_id = $1 AND left(item_key, length($2)) = $2
            """, userID.rawValue, keyPrefix) { row in (try row.string(0), try row.string(1)) }
        return Dictionary(rows, uniquingKeysWith: { first, _ in first })
    }

    func smsSendTimes(phone: String, since: Int64) throws -> [Int64] {
        try query("smsSendTimes(phone:since:)", "SELECT sent_at FROM sms_sends WHERE phone = $1 AND sent_at > $2 ORDER BY sent_at",
                  phone, since) { try $0.int64(0) }
    }
}
