import ParleyCore
import ParleyProtocol
import ParleySQL

// `StoreWriter`: erasing a deleted account, and its username's quarantine.
extension SQLiteStoreWriter {
    func eraseUser(_ id: UserID, at time: Int64, erasingMessages: Bool) throws -> ErasedUser {
        try StoreError.mapping("eraseUser") {
            // Deleted and overwritten content is zeroed in the file, not left in free space
            // (SQLite's secure_delete), for these statements only: they are rare, and the
            // extra writes are not worth it for messages and sessions.
            _ = try connection.query("PRAGMA secure_delete = ON") { _ in () }
            defer { _ = try? connection.query("PRAGMA secure_delete = OFF") { _ in () } }
            let user = id.rawValue
            let phone = try connection.queryFirst("SELECT phone FROM users WHERE id = ?", user) { try $0.optionalString(0) } ?? nil
            let sessions = try connection.query("DELETE FROM sessions WHERE user_id = ? RETURNING id", user) { try $0.string(0) }
            let friends = try connection.query("""
                SELECT friend_id FROM friendships WHERE user_id = ?1
                UNION SELECT user_id FROM friendships WHERE friend_id = ?1
                """, user) { UserID(try $0.int64(0)) }
            _ = try connection.run("DELETE FROM friendships WHERE user_id = ?1 OR friend_id = ?1", user)
            _ = try connection.run("DELETE FROM friend_requests WHERE from_id = ?1 OR to_id = ?1", user)
            _ = try connection.run("DELETE FROM blocks WHERE user_id = ?1 OR target_id = ?1", user)
            _ = try connection.run("DELETE FROM swipes WHERE user_id = ?1 OR target_id = ?1", user)
            _ = try connection.run("DELETE FROM scram_credentials WHERE user_id = ?", user)
            // What other features keep per user: the Jabber gateway's private storage, push
            // registrations, mutes and settings, messages hidden for them, mentions of them, receipt
            // markers and privacy choices, the search opt-out, the last-seen time.
            for table in ["xmpp_private_items", "push_targets", "conversation_mutes", "notification_settings",
                          "hidden_messages", "message_mentions", "delivery_markers", "privacy_settings", "unfindable_users",
                          "last_seen", "pep_items",
                          "conversation_bans", "group_mutes", "group_join_requests", "admins", "suspensions"] {
                _ = try connection.run("DELETE FROM \(table) WHERE user_id = ?", user)
            }
            // Group governance: invitations of the user go; what they did as an admin stays,
            // no longer naming them.
            _ = try connection.run("DELETE FROM group_invites WHERE invitee = ?", user)
            _ = try connection.run("UPDATE group_invites SET created_by = NULL WHERE created_by = ?", user)
            _ = try connection.run("UPDATE conversation_bans SET banned_by = NULL WHERE banned_by = ?", user)
            // Reports stay for the moderators (what was reported, and what was decided), but
            // no longer say who reported. The audit log is kept whole: it records what
            // administrators did, by id, and is the server's accountability, not the user's data.
            _ = try connection.run("UPDATE reports SET reporter_id = NULL WHERE reporter_id = ?", user)
            let media = try connection.query("DELETE FROM media WHERE owner_id = ? RETURNING id", user) { try $0.string(0) }
            if let phone {
                _ = try connection.run("DELETE FROM sms_challenges WHERE phone = ?", phone)
                _ = try connection.run("DELETE FROM sms_sends WHERE phone = ?", phone)
            }
            if erasingMessages {
                // The messages keep their place in each sequence (no gap for clients to chase)
                // but lose their content.
                _ = try connection.run("UPDATE messages SET kind = 'text', text = '', body = NULL WHERE sender_id = ?", user)
                // The copies kept for moderators go with them.
                _ = try connection.run("UPDATE reports SET snapshot = NULL WHERE reported_id = ? AND target = 'message'", user)
            }
            _ = try connection.run("""
                UPDATE users
                SET username = NULL, username_key = NULL, password_hash = NULL, phone = NULL, nickname = NULL,
                    avatar = NULL, signature = NULL, age = NULL, hobbies = '[]', deleted_at = ?
                WHERE id = ?
                """, time, user)
            return ErasedUser(sessionIDs: sessions, mediaIDs: media, friends: friends)
        }
    }

    func quarantineUsername(hash: [UInt8], until: Int64, now: Int64) throws {
        try StoreError.mapping("quarantineUsername") {
            _ = try connection.run("DELETE FROM username_quarantine WHERE until_at <= ?", now)
            _ = try connection.run("""
                INSERT INTO username_quarantine (username_hash, until_at) VALUES (?, ?)
                ON CONFLICT (username_hash) DO UPDATE SET until_at = max(until_at, excluded.until_at)
                """, hash, until)
        }
    }
}

extension SQLiteStoreQuerying {
    func isUsernameQuarantined(hash: [UInt8], at time: Int64) throws -> Bool {
        try StoreError.mapping("isUsernameQuarantined") {
            try connection.queryFirst("SELECT 1 FROM username_quarantine WHERE username_hash = ? AND until_at > ?",
                                      hash, time) { _ in true } ?? false
        }
    }
}
