public import ParleyProtocol

// Push-notification controls (docs/protocol.md, "Push notifications"), typed. Registering a
// device's push target is HTTP (`/v1/push/...`), done by the app with its platform's token.
extension ParleyClient {
    /// `conversation.mute`: no push notifications from `conversation` until `until` (ms since
    /// the epoch; nil: until unmuted), except mentions of the user when `mentionsOnly`. The
    /// sessions list shows the mute (`ConversationSummary.mute`). Errors: `not_found`,
    /// `not_member`, `invalid_field`.
    @discardableResult
    public func mute(_ conversation: ConversationID, until: Int64? = nil, mentionsOnly: Bool = false)
        async throws(ParleyError) -> ConversationMute {
        let mute = try await call(Op.ConversationMute.self, MuteParameters(conversationId: conversation, until: until, mentionsOnly: mentionsOnly))
        applyMute(MuteState(conversationId: conversation, mute: mute))
        return mute
    }

    /// `conversation.unmute`: ends a mute (no error if there was none).
    public func unmute(_ conversation: ConversationID) async throws(ParleyError) {
        let _: EmptyPayload = try await call(Op.ConversationUnmute.self, ConversationReference(conversationId: conversation))
        applyMute(MuteState(conversationId: conversation))
    }

    /// A mute changed (here, or on another device: `conversation.muted`): kept on the cached
    /// summary, and the sessions list reloads.
    func applyMute(_ state: MuteState) {
        guard var summary = try? store.conversation(state.conversationId), summary.mute != state.mute else { return }
        summary.mute = state.mute
        try? store.setConversation(summary)
        emit(.conversationsChanged)
    }

    /// `client.state`: tells the server whether the app is in front of its user; a user whose
    /// every connection is inactive gets push notifications. Call it when the app moves to
    /// the background and back (a new connection starts active).
    public func setClientState(_ state: ClientStateParameters.State) async throws(ParleyError) {
        let _: EmptyPayload = try await call(Op.ClientState.self, ClientStateParameters(state: state))
    }
}
