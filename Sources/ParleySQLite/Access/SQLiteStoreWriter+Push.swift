import ParleyCore
import ParleyProtocol
import ParleySQL

// `StoreWriter`: push targets, mutes and the preview setting.
extension SQLiteStoreWriter {
    func savePushTarget(_ target: StoredPushTarget) throws {
        try StoreError.mapping("savePushTarget") {
            try connection.run("DELETE FROM push_targets WHERE kind = ? AND address = ?", target.kind.rawValue, target.address)
            try connection.run("""
                INSERT INTO push_targets (id, user_id, session_id, kind, address, endpoint, p256dh, auth, app_id, pushkey, created_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, target.id, target.userID.rawValue, target.sessionID, target.kind.rawValue, target.address, target.endpoint,
                target.p256dh, target.auth, target.appID, target.pushkey, target.createdAt)
        }
    }

    func deletePushTarget(id: String, of user: UserID) throws -> Bool {
        try StoreError.mapping("deletePushTarget(id:of:)") {
            try connection.run("DELETE FROM push_targets WHERE id = ? AND user_id = ?", id, user.rawValue) > 0
        }
    }

    func deletePushTarget(kind: StoredPushTarget.Kind, address: String) throws {
        try StoreError.mapping("deletePushTarget(kind:address:)") {
            _ = try connection.run("DELETE FROM push_targets WHERE kind = ? AND address = ?", kind.rawValue, address)
        }
    }

    func deletePushTargets(of user: UserID) throws {
        try StoreError.mapping("deletePushTargets(of:)") {
            _ = try connection.run("DELETE FROM push_targets WHERE user_id = ?", user.rawValue)
        }
    }

    func setConversationMute(_ mute: ConversationMute, of user: UserID, conversation: ConversationID) throws {
        try StoreError.mapping("setConversationMute") {
            _ = try connection.run("""
                INSERT INTO conversation_mutes (user_id, conversation_id, until, mentions_only) VALUES (?, ?, ?, ?)
                ON CONFLICT (user_id, conversation_id) DO UPDATE SET until = excluded.until, mentions_only = excluded.mentions_only
                """, user.rawValue, conversation.rawValue, mute.until, mute.mentionsOnly)
        }
    }

    func deleteConversationMute(of user: UserID, conversation: ConversationID) throws {
        try StoreError.mapping("deleteConversationMute") {
            _ = try connection.run("DELETE FROM conversation_mutes WHERE user_id = ? AND conversation_id = ?",
                                   user.rawValue, conversation.rawValue)
        }
    }

    func setNotificationPreview(_ preview: NotificationPreview, of user: UserID) throws {
        try StoreError.mapping("setNotificationPreview") {
            _ = try connection.run("""
                INSERT INTO notification_settings (user_id, preview) VALUES (?, ?)
                ON CONFLICT (user_id) DO UPDATE SET preview = excluded.preview
                """, user.rawValue, preview.rawValue)
        }
    }
}
