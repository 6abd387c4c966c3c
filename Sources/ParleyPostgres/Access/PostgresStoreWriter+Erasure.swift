import ParleyCore
import ParleyProtocol

// `StoreWriter`: erasing a deleted account, and its username's quarantine (as SQLite's).
extension PostgresStoreWriter {
    func eraseUser(_ id: UserID, at time: Int64, erasingMessages: Bool) throws -> ErasedUser {
        let user = id.rawValue
        let phone = try queryFirst("eraseUser", "SELECT phone FROM users WHERE id = $1", user) { try $0.optionalString(0) } ?? nil
        let sessions = try query("eraseUser", "DELETE FROM sessions WHERE user_id = $1 RETURNING id", user) { try $0.string(0) }
        let friends = try query("eraseUser", """
            SELECT friend_id FROM friendships WHERE user_id = $1
            UNION SELECT user_id FROM friendships WHERE friend_id = $1
            """, user) { UserID(try $0.int64(0)) }
        try run("eraseUser", "DELETE FROM friendships WHERE user_id = $1 OR friend_id = $1", user)
        try run("eraseUser", "DELETE FROM friend_requests WHERE from_id = $1 OR to_id = $1", user)
        try run("eraseUser", "DELETE FROM blocks WHERE user_id = $1 OR target_id = $1", user)
        try run("eraseUser", "DELETE FROM swipes WHERE user_id = $1 OR target_id = $1", user)
        try run("eraseUser", "DELETE FROM scram_credentials WHERE user_id = $1", user)
        // What other features keep per user: the Jabber gateway's private storage, push
        // registrations, mutes and settings, messages hidden for them, mentions of them, receipt
        // markers and privacy choices, the search opt-out, the last-seen time.
        for table in ["xmpp_private_items", "push_targets", "conversation_mutes", "notification_settings",
                      "hidden_messages", "message_mentions", "delivery_markers", "privacy_settings", "unfindable_users",
                      "last_seen", "pep_items",
                      "conversation_bans", "group_mutes", "group_join_requests", "admins", "suspensions"] {
            try run("eraseUser", "DELETE FROM \(table) WHERE user_id = $1", user)
        }
        // Group governance: invitations of the user go; what they did as an admin stays,
        // no longer naming them.
        try run("eraseUser", "DELETE FROM group_invites WHERE invitee = $1", user)
        try run("eraseUser", "UPDATE group_invites SET created_by = NULL WHERE created_by = $1", user)
        try run("eraseUser", "UPDATE conversation_bans SET banned_by = NULL WHERE banned_by = $1", user)
        // Reports stay without their reporter; the audit log stays whole (SQLite's says why).
        try run("eraseUser", "UPDATE reports SET reporter_id = NULL WHERE reporter_id = $1", user)
        let media = try query("eraseUser", "DELETE FROM media WHERE owner_id = $1 RETURNING id", user) { try $0.string(0) }
        if let phone {
            try run("eraseUser", "DELETE FROM sms_challenges WHERE phone = $1", phone)
            try run("eraseUser", "DELETE FROM sms_sends WHERE phone = $1", phone)
        }
        if erasingMessages {
            try run("eraseUser", "UPDATE messages SET kind = 'text', text = '', body = NULL WHERE sender_id = $1", user)
            try run("eraseUser", "UPDATE reports SET snapshot = NULL WHERE reported_id = $1 AND target = 'message'", user)
        }
        try run("eraseUser", """
            UPDATE users
            SET username = NULL, username_key = NULL, password_hash = NULL, phone = NULL, nickname = NULL,
                avatar = NULL, signature = NULL, age = NULL, hobbies = '[]'::jsonb, deleted_at = $1
            WHERE id = $2
            """, time, user)
        return ErasedUser(sessionIDs: sessions, mediaIDs: media, friends: friends)
    }

    func quarantineUsername(hash: [UInt8], until: Int64, now: Int64) throws {
        try run("quarantineUsername", "DELETE FROM username_quarantine WHERE until_at <= $1", now)
        try run("quarantineUsername", """
            INSERT INTO username_quarantine (username_hash, until_at) VALUES ($1, $2)
            ON CONFLICT (username_hash) DO UPDATE SET until_at = greatest(username_quarantine.until_at, excluded.until_at)
            """, hash, until)
    }
}

extension PostgresStoreQuerying {
    func isUsernameQuarantined(hash: [UInt8], at time: Int64) throws -> Bool {
        try queryFirst("isUsernameQuarantined", "SELECT 1 FROM username_quarantine WHERE username_hash = $1 AND until_at > $2",
                       hash, time) { _ in true } ?? false
    }
}
