import ParleyCore
import ParleyProtocol
import ParleySQL
import ParleyStoreSupport

/// What a `write` closure gets: queries and changes on the writer thread's connection,
/// inside the closure's own savepoint of the batch's transaction.
///
/// Because one connection does all writing, and it holds the write lock for the whole batch,
/// what a closure reads cannot change under it before it commits: a uniqueness check done
/// here is authoritative (the `UNIQUE` indexes remain the last line of defence).
struct SQLiteStoreWriter: SQLiteStoreQuerying, StoreWriter {
    let connection: SQLiteConnection
    /// The send path's statements on `connection`.
    let sending: SendStatements
    /// Asked to scrub the WAL after a commit that erased a recalled message.
    let scrubber: WALScrubber
    /// The message log, when it is the durability point of message inserts: told of every
    /// message row inserted and of the changes of marker moves (`MessageLogJournal`).
    let journal: MessageLogJournal?
    /// Told of every message row inserted, which it indexes for search later; nil where
    /// nothing indexes (the message log's replay at open: the writer thread's indexer picks
    /// replayed rows up as it starts).
    let searchIndex: SearchIndexer?

    func insertUser(_ user: NewUser) throws -> StoredUser {
        let usernameKey = user.username.map(StoredUser.key(for:))
        try uniquenessGuarded("insertUser", username: usernameKey, phone: user.phone, excluding: nil) {
            try connection.run("""
                INSERT INTO users (username, username_key, password_hash, phone, hobbies, created_at)
                VALUES (?, ?, ?, ?, '[]', ?)
                """, user.username, usernameKey, user.passwordHash, user.phone, user.createdAt)
        }
        return StoredUser(id: UserID(connection.lastInsertRowID), username: user.username,
                          passwordHash: user.passwordHash, phone: user.phone, createdAt: user.createdAt)
    }

    /// Updates nothing when the user does not exist, as `touchSession` does for a session:
    /// a row deleted meanwhile is not the caller's failure.
    func updateUser(_ user: StoredUser) throws {
        let usernameKey = user.username.map(StoredUser.key(for:))
        let hobbies = try HobbiesCoding.encode(user.hobbies)
        try uniquenessGuarded("updateUser", username: usernameKey, phone: user.phone, excluding: user.id) {
            try connection.run("""
                UPDATE users
                SET username = ?, username_key = ?, password_hash = ?, phone = ?, nickname = ?,
                    avatar = ?, signature = ?, age = ?, hobbies = ?
                WHERE id = ?
                """, user.username, usernameKey, user.passwordHash, user.phone, user.nickname,
                user.avatar, user.signature, user.age, hobbies, user.id.rawValue)
        }
    }

    func insertSession(_ session: StoredSession) throws {
        try StoreError.mapping("insertSession") {
            try connection.run("""
                INSERT INTO sessions (id, user_id, token_hash, created_at, last_seen_at, user_agent, device_name, last_address)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """, session.id, session.userID.rawValue, session.tokenHash, session.createdAt,
                session.lastSeenAt, session.userAgent, session.deviceName, session.lastAddress)
        }
    }

    func deleteSession(id: String, userID: UserID) throws -> Bool {
        try StoreError.mapping("deleteSession") {
            try connection.run("DELETE FROM sessions WHERE id = ? AND user_id = ?", id, userID.rawValue) > 0
        }
    }

    func deleteSessions(of userID: UserID, keeping: String?) throws -> [String] {
        try StoreError.mapping("deleteSessions") {
            try connection.query("DELETE FROM sessions WHERE user_id = ? AND id IS NOT ? RETURNING id",
                                 userID.rawValue, keeping, row: { row in try row.string(0) })
        }
    }

    /// Never moves `last_seen_at` back: two requests of one session may commit out of order.
    func touchSession(id: String, at time: Int64, address: String?) throws {
        try StoreError.mapping("touchSession") {
            try connection.run("""
                UPDATE sessions SET last_seen_at = max(last_seen_at, ?), last_address = coalesce(?, last_address)
                WHERE id = ?
                """, time, address, id)
        }
    }

    func insertMedia(_ media: StoredMedia) throws {
        try StoreError.mapping("insertMedia") {
            try connection.run("""
                INSERT INTO media (id, owner_id, type, width, height, size, created_at, duration_ms)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """, media.id, media.ownerID.rawValue, media.type.rawValue, media.width, media.height,
                media.size, media.createdAt, media.durationMs)
        }
    }

    func markMediaReferenced(id: String, at time: Int64) throws {
        try StoreError.mapping("markMediaReferenced") {
            try connection.run("UPDATE media SET referenced_at = ? WHERE id = ? AND referenced_at IS NULL", time, id)
        }
    }

    func deleteUnreferencedMedia(id: String) throws -> Bool {
        try StoreError.mapping("deleteUnreferencedMedia") {
            try connection.run("DELETE FROM media WHERE id = ? AND referenced_at IS NULL", id) > 0
        }
    }

    func saveSMSChallenge(_ challenge: SMSChallenge) throws {
        try StoreError.mapping("saveSMSChallenge") {
            try connection.run("""
                INSERT INTO sms_challenges (phone, code_hash, sent_at, expires_at, failed_attempts)
                VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (phone) DO UPDATE SET
                    code_hash = excluded.code_hash, sent_at = excluded.sent_at,
                    expires_at = excluded.expires_at, failed_attempts = excluded.failed_attempts
                """, challenge.phone, challenge.codeHash, challenge.sentAt, challenge.expiresAt,
                challenge.failedAttempts)
        }
    }

    func deleteSMSChallenge(phone: String) throws {
        try StoreError.mapping("deleteSMSChallenge") {
            try connection.run("DELETE FROM sms_challenges WHERE phone = ?", phone)
        }
    }

    func recordSMSSend(phone: String, at time: Int64, forgetBefore: Int64) throws {
        try StoreError.mapping("recordSMSSend") {
            _ = try connection.run("DELETE FROM sms_sends WHERE sent_at <= ?", forgetBefore)
            _ = try connection.run("INSERT INTO sms_sends (phone, sent_at) VALUES (?, ?)", phone, time)
        }
    }

    // MARK: Uniqueness

    /// Runs `change`, turning a refused duplicate into `StoreError.conflict` naming the
    /// field. SQLite's message names the index too, but its wording is not an API, so the
    /// culprit is found by asking the table instead (the write lock keeps the answer exact).
    private func uniquenessGuarded(_ operation: String, username: String?, phone: String?, excluding id: UserID?,
                                   _ change: () throws -> Void) throws {
        do {
            try change()
        } catch let error as SQLiteError where error.isUniqueViolation {
            let other = id?.rawValue ?? 0
            if let username, try StoreError.mapping(operation, {
                try connection.queryFirst("SELECT 1 FROM users WHERE username_key = ? AND id != ?", username, other) { _ in true }
            }) != nil {
                throw StoreError.conflict("username")
            }
            if let phone, try StoreError.mapping(operation, {
                try connection.queryFirst("SELECT 1 FROM users WHERE phone = ? AND id != ?", phone, other) { _ in true }
            }) != nil {
                throw StoreError.conflict("phone")
            }
            throw StoreError.sqlite(error, during: operation)
        } catch {
            throw StoreError.translating(error, during: operation)
        }
    }

    /// Runs `body`, a marker move, whose changes the message log may leave to the next
    /// sync (see `MessageLogJournal`); without the log, just runs it.
    @discardableResult
    func tolerated<T>(_ body: () throws -> T) rethrows -> T {
        guard let journal else { return try body() }
        return try journal.tolerate(connection, body)
    }
}
