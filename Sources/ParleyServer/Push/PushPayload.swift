import ParleyProtocol

/// What a Web Push message carries (encrypted, RFC 8291), read by the web client's service
/// worker: enough to show a notification and open the conversation, and by the user's
/// preview setting, no more.
struct PushPayload: Codable, Sendable, Equatable {
    /// `message`, `friend_added` (a request of the user's was accepted), `matched` (a
    /// discover match) or `friend_request`.
    var type = "message"
    /// The conversation (none for a friend request).
    var conversationId: ConversationID?
    /// The newest message's sequence number.
    var seq: Int64?
    /// The sender's display name; absent with the preview setting `nothing`.
    var sender: String?
    /// The group's name, for a group message.
    var conversationName: String?
    /// The newest message's text (clipped), or a friend request's greeting; absent unless
    /// the preview setting is `full`.
    var preview: String?
    /// Messages this notification stands for (coalesced).
    var count: Int
    /// The conversation's unread messages, and the user's in all.
    var unread: Int64
    var totalUnread: Int64
}
