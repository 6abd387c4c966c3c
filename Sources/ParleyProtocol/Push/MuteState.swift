/// `conversation.muted`: the user muted or unmuted a conversation on another connection, so
/// every device shows the same mark in the sessions list (docs/protocol.md, "Push
/// notifications").
public struct MuteState: Codable, Sendable, Equatable {
    public var conversationId: ConversationID
    /// The mute now in force; absent: unmuted.
    public var mute: ConversationMute?

    public init(conversationId: ConversationID, mute: ConversationMute? = nil) {
        self.conversationId = conversationId
        self.mute = mute
    }
}
