import ParleyCore
import ParleyProtocol
import ParleyStoreSupport

/// What a `write` closure gets: queries and changes on a writer thread's connection, inside
/// the closure's own savepoint of the batch's transaction (read committed).
///
/// Several servers may write to the database at once, so a check done here ("is this name
/// taken?") can be overtaken by another server's commit: the unique constraints are what
/// decide, and a refused duplicate becomes `StoreError.conflict` named after the rule it
/// broke (`PostgresStoreSchema.conflicts`), exactly as the SQLite store names them.
///
/// A statement that fails in PostgreSQL fails the whole transaction until it is rolled back
/// to a savepoint. Changes whose conflict callers expect and handle (users, names, requests)
/// therefore run in a savepoint of their own, so that a caller who catches the conflict can
/// go on in the same `write`, as with SQLite.
struct PostgresStoreWriter: PostgresStoreQuerying, StoreWriter {
    let connection: PostgresConnection

    func insertUser(_ user: NewUser) throws -> StoredUser {
        let usernameKey = user.username.map(StoredUser.key(for:))
        let id = try isolated("insertUser") {
            try queryFirst("insertUser", """
                INSERT INTO users (username, username_key, password_hash, phone, created_at)
                VALUES ($1, $2, $3, $4, $5)
                RETURNING id
                """, user.username, usernameKey, user.passwordHash, user.phone, user.createdAt) { try $0.int64(0) }
        }
        guard let id else { throw StoreError.failure("insertUser: no id came back") }
        return StoredUser(id: UserID(id), username: user.username, passwordHash: user.passwordHash, phone: user.phone,
                          createdAt: user.createdAt)
    }

    /// Updates nothing when the user does not exist: a row deleted meanwhile is not the
    /// caller's failure.
    func updateUser(_ user: StoredUser) throws {
        let usernameKey = user.username.map(StoredUser.key(for:))
        let hobbies = try HobbiesCoding.encode(user.hobbies)
        try isolated("updateUser") {
            try run("updateUser", """
                UPDATE users
                SET username = $1, username_key = $2, password_hash = $3, phone = $4, nickname = $5,
                    avatar = $6, signature = $7, age = $8, hobbies = $9::jsonb
                WHERE id = $10
                """, user.username, usernameKey, user.passwordHash, user.phone, user.nickname,
                user.avatar, user.signature, user.age, hobbies, user.id.rawValue)
        }
    }

    func insertSession(_ session: StoredSession) throws {
        try run("insertSession", """
            INSERT INTO sessions (id, user_id, token_hash, created_at, last_seen_at, user_agent, device_name, last_address)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
            """, session.id, session.userID.rawValue, session.tokenHash, session.createdAt,
            session.lastSeenAt, session.userAgent, session.deviceName, session.lastAddress)
    }

    func deleteSession(id: String, userID: UserID) throws -> Bool {
        try run("deleteSession", "DELETE FROM sessions WHERE id = $1 AND user_id = $2", id, userID.rawValue) > 0
    }

    func deleteSessions(of userID: UserID, keeping: String?) throws -> [String] {
        try query("deleteSessions", "DELETE FROM sessions WHERE user_id = $1 AND id IS DISTINCT FROM $2 RETURNING id",
                  userID.rawValue, keeping, row: { row in try row.string(0) })
    }

    /// Never moves `last_seen_at` back: two requests of one session may commit out of order.
    func touchSession(id: String, at time: Int64, address: String?) throws {
        try run("touchSession", """
            UPDATE sessions SET last_seen_at = greatest(last_seen_at, $1), last_address = coalesce($2, last_address)
            WHERE id = $3
            """, time, address, id)
    }

    func insertMedia(_ media: StoredMedia) throws {
        try run("insertMedia", """
            INSERT INTO media (id, owner_id, type, width, height, size, created_at, duration_ms)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
            """, media.id, media.ownerID.rawValue, media.type.rawValue, media.width, media.height,
            media.size, media.createdAt, media.durationMs)
    }

    func markMediaReferenced(id: String, at time: Int64) throws {
        try run("markMediaReferenced", "UPDATE media SET referenced_at = $1 WHERE id = $2 AND referenced_at IS NULL", time, id)
    }

    func deleteUnreferencedMedia(id: String) throws -> Bool {
        try run("deleteUnreferencedMedia", "DELETE FROM media WHERE id = $1 AND referenced_at IS NULL", id) > 0
    }

    func saveSMSChallenge(_ challenge: SMSChallenge) throws {
        try run("saveSMSChallenge", """
            INSERT INTO sms_challenges (phone, code_hash, sent_at, expires_at, failed_attempts)
            VALUES ($1, $2, $3, $4, $5)
            ON CONFLICT (phone) DO UPDATE SET
                code_hash = excluded.code_hash, sent_at = excluded.sent_at,
                expires_at = excluded.expires_at, failed_attempts = excluded.failed_attempts
            """, challenge.phone, challenge.codeHash, challenge.sentAt, challenge.expiresAt,
            challenge.failedAttempts)
    }

    func deleteSMSChallenge(phone: String) throws {
        try run("deleteSMSChallenge", "DELETE FROM sms_challenges WHERE phone = $1", phone)
    }

    func recordSMSSend(phone: String, at time: Int64, forgetBefore: Int64) throws {
        try run("recordSMSSend", "DELETE FROM sms_sends WHERE sent_at <= $1", forgetBefore)
        try run("recordSMSSend", "INSERT INTO sms_sends (phone, sent_at) VALUES ($1, $2)", phone, time)
    }

    // MARK: Savepoints

    /// Runs `change` in a savepoint of its own: if it fails, only it is undone and the
    /// transaction stays usable, so the caller may catch the error (a conflict) and go on.
    ///
    /// The savepoint costs no round trip of its own: it travels with the change's statement.
    /// One that succeeded is left in place rather than released: it ends with the write's
    /// own savepoint or the commit, and releasing it would cost a round trip. (PostgreSQL
    /// keeps same-named savepoints apart; a rollback goes to the newest.)
    @discardableResult
    func isolated<T>(_ operation: String, _ change: () throws -> T) throws -> T {
        // In a failed transaction the savepoint would be refused, and the rollback below
        // would go to an older one of the same name, undoing more than this change.
        guard !connection.isInFailedTransaction else {
            throw StoreError.failure("\(operation): an earlier statement failed the transaction")
        }
        // Sent with the change's statement, in the same round trip.
        connection.deferCommand("SAVEPOINT parley_change")
        do {
            return try change()
        } catch {
            // A failed rollback leaves the transaction failed; the batch's own savepoint and
            // the commit will report it, so the change's error is the one to pass on.
            _ = try? connection.execute("ROLLBACK TO SAVEPOINT parley_change; RELEASE SAVEPOINT parley_change")
            throw StoreError.translating(error, during: operation)
        }
    }
}
