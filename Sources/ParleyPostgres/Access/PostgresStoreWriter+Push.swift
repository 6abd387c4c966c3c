import ParleyCore
import ParleyProtocol

// `StoreWriter`: push targets, mutes and the preview setting.
extension PostgresStoreWriter {
    func savePushTarget(_ target: StoredPushTarget) throws {
        try run("savePushTarget", "DELETE FROM push_targets WHERE kind = $1 AND address = $2", target.kind.rawValue, target.address)
        try run("savePushTarget", """
            INSERT INTO push_targets (id, user_id, session_id, kind, address, endpoint, p256dh, auth, app_id, pushkey, created_at)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
            """, target.id, target.userID.rawValue, target.sessionID, target.kind.rawValue, target.address, target.endpoint,
            target.p256dh, target.auth, target.appID, target.pushkey, target.createdAt)
    }

    func deletePushTarget(id: String, of user: UserID) throws -> Bool {
        try run("deletePushTarget(id:of:)", "DELETE FROM push_targets WHERE id = $1 AND user_id = $2", id, user.rawValue) > 0
    }

    func deletePushTarget(kind: StoredPushTarget.Kind, address: String) throws {
        try run("deletePushTarget(kind:address:)", "DELETE FROM push_targets WHERE kind = $1 AND address = $2", kind.rawValue, address)
    }

    func deletePushTargets(of user: UserID) throws {
        try run("deletePushTargets(of:)", "DELETE FROM push_targets WHERE user_id = $1", user.rawValue)
    }

    func setConversationMute(_ mute: ConversationMute, of user: UserID, conversation: ConversationID) throws {
        try run("setConversationMute", """
            INSERT INTO conversation_mutes (user_id, conversation_id, until, mentions_only) VALUES ($1, $2, $3, $4)
            ON CONFLICT (user_id, conversation_id) DO UPDATE SET until = excluded.until, mentions_only = excluded.mentions_only
            """, user.rawValue, conversation.rawValue, mute.until, mute.mentionsOnly)
    }

    func deleteConversationMute(of user: UserID, conversation: ConversationID) throws {
        try run("deleteConversationMute", "DELETE FROM conversation_mutes WHERE user_id = $1 AND conversation_id = $2",
                user.rawValue, conversation.rawValue)
    }

    func setNotificationPreview(_ preview: NotificationPreview, of user: UserID) throws {
        try run("setNotificationPreview", """
            INSERT INTO notification_settings (user_id, preview) VALUES ($1, $2)
            ON CONFLICT (user_id) DO UPDATE SET preview = excluded.preview
            """, user.rawValue, preview.rawValue)
    }
}
