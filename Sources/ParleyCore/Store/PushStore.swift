public import ParleyProtocol

/// Push notification queries (part of `StoreReader`).
public protocol PushReader {
    /// Every push target of `user`, oldest first.
    func pushTargets(of user: UserID) throws -> [StoredPushTarget]
    /// The user's mutes, by conversation (expired ones included: the caller knows the time).
    func conversationMutes(of user: UserID) throws -> [ConversationID: ConversationMute]
    /// The user's preview setting; nil when never set (`full`).
    func notificationPreview(of user: UserID) throws -> NotificationPreview?
}

/// Push notification changes (part of `StoreWriter`).
public protocol PushWriter: PushReader {
    /// Stores a target, replacing any target of the same kind and `address` (whoever had it).
    func savePushTarget(_ target: StoredPushTarget) throws
    /// Removes the user's target with this id; returns whether it did.
    func deletePushTarget(id: String, of user: UserID) throws -> Bool
    /// Removes the target of this kind and address (the push service said it is gone).
    func deletePushTarget(kind: StoredPushTarget.Kind, address: String) throws
    /// Removes every push target of `user` (the account is deleted). Ending a sign-in session
    /// removes that session's targets by itself.
    func deletePushTargets(of user: UserID) throws
    /// Sets (or replaces) the user's mute of `conversation`.
    func setConversationMute(_ mute: ConversationMute, of user: UserID, conversation: ConversationID) throws
    /// Ends the user's mute of `conversation`, if any.
    func deleteConversationMute(of user: UserID, conversation: ConversationID) throws
    func setNotificationPreview(_ preview: NotificationPreview, of user: UserID) throws
}
