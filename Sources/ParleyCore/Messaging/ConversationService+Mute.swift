public import ParleyProtocol

// Mutes: a user's own setting per conversation, shown in their sessions list; the user's
// other connections hear of each change (`conversation.muted`), so every device shows it.
extension ConversationService {
    /// Mutes the conversation's notifications for `user` (a member, or a room's occupant),
    /// until `until` if given (which must be in the future). `connection`, the one that asked,
    /// is not told.
    public func mute(for user: UserID, _ parameters: MuteParameters, connection: ConnectionToken? = nil) async throws(ProtocolError) -> ConversationMute {
        let now = context.clock()
        if let until = parameters.until, until <= now {
            throw ProtocolError(.invalidField, "until must be in the future", field: "until")
        }
        let mute = ConversationMute(until: parameters.until, mentionsOnly: parameters.mentionsOnly ?? false)
        let rooms = context.rooms
        try await context.gateway.write { writer in
            _ = try ConversationAccess.readable(parameters.conversationId, by: user, reader: writer, rooms: rooms)
            try writer.setConversationMute(mute, of: user, conversation: parameters.conversationId)
        }
        context.delivery.deliver(.conversationMuted(MuteState(conversationId: parameters.conversationId, mute: mute)),
                                 to: [user], excluding: connection)
        return mute
    }

    /// Ends `user`'s mute of the conversation; nothing if there was none.
    public func unmute(for user: UserID, _ reference: ConversationReference, connection: ConnectionToken? = nil) async throws(ProtocolError) {
        try await context.gateway.write { writer in
            try writer.deleteConversationMute(of: user, conversation: reference.conversationId)
        }
        context.delivery.deliver(.conversationMuted(MuteState(conversationId: reference.conversationId)), to: [user], excluding: connection)
    }
}
