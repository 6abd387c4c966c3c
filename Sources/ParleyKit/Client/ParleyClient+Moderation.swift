public import ParleyProtocol

// Reports and group disband (docs/protocol.md, "Reports", "Groups").
extension ParleyClient {
    /// `report.create` for a message: the administrators keep it as it is now.
    /// Errors: `not_member`, `not_found`, `invalid_field` (the note), `rate_limited`.
    public func reportMessage(_ message: Message, reason: ReportReason, note: String? = nil) async throws(ParleyError) -> ReportReceipt {
        try await call(Op.ReportCreate.self, ReportParameters(conversationId: message.conversationId, messageId: message.id,
                                                              reason: reason, note: note))
    }

    /// `report.create` for a user. Errors: `not_found`, `invalid_field`, `rate_limited`.
    public func reportUser(_ user: UserID, reason: ReportReason, note: String? = nil) async throws(ParleyError) -> ReportReceipt {
        try await call(Op.ReportCreate.self, ReportParameters(userId: user, reason: reason, note: note))
    }

    /// `group.disband` (the owner only): the group leaves this client's cache at once and
    /// every member's when they hear `group.disbanded`. Errors: `not_owner`, `not_found`.
    public func disbandGroup(_ conversation: ConversationID) async throws(ParleyError) {
        let _: ConversationReference = try await call(Op.GroupDisband.self, ConversationReference(conversationId: conversation))
        try? store.removeGroup(conversation)
        emit(.conversationsChanged)
    }
}
