/// `conversation.mute`: mutes a conversation's notifications for the sender.
public struct MuteParameters: Codable, Sendable, Equatable {
    public var conversationId: ConversationID
    /// When the mute ends, ms since the epoch; absent: until unmuted.
    public var until: Int64?
    /// Whether mentions of the user still notify (default false).
    public var mentionsOnly: Bool?

    public init(conversationId: ConversationID, until: Int64? = nil, mentionsOnly: Bool? = nil) {
        self.conversationId = conversationId
        self.until = until
        self.mentionsOnly = mentionsOnly
    }
}
