public import ParleyProtocol

// Listened marks on voice messages (docs/protocol.md, "Voice messages").
//
// A recipient's first play is an event in the conversation's sequence (`message_listened`,
// with the message's id), written with the message's new `listenedBy` in one write, like a
// reaction: so `sync`, history and the other devices carry it with no mechanism of their own,
// and a group's count is the list's length. Read markers could not say it: they count
// positions in the sequence, and a voice note is often played long after later messages
// were read. Privacy follows read receipts: a play is stored only when the listener shares
// read receipts (in a 1:1, both of the pair, as for the read ticks); otherwise nothing is
// written and the listener's client keeps the played state itself.
extension MessageActionService {
    /// Marks a voice message played by `user`; see `Op.MessageListened`.
    public func listen(by user: UserID, _ parameters: MessageActionParameters, connection: ConnectionToken?) async throws(ProtocolError) -> ListenResult {
        let rooms = context.rooms
        let now = context.clock()
        let rules = context.rules
        let outcome = try await context.gateway.write { writer -> (ListenResult, Acted?) in
            try rules.text.validate(parameters.clientId, as: .clientId)
            let conversation = try ConversationAccess.readable(parameters.conversationId, by: user, reader: writer, rooms: rooms)
            if let existing = try writer.message(sender: user, clientID: parameters.clientId) {
                // A retry: answered from what was stored.
                guard existing.conversationId == parameters.conversationId, existing.system?.type == .messageListened,
                      existing.system?.messageId == parameters.messageId else {
                    throw ProtocolError(.invalidField, "this client id was used for another message", field: "clientId")
                }
                let target = try ConversationAccess.target(parameters.messageId, in: parameters.conversationId, seenBy: user, reader: writer)
                let from = try ConversationAccess.historyStart(of: parameters.conversationId, for: user, reader: writer)
                return (ListenResult(message: try Self.shown(target, reader: writer, rules: rules, from: from), event: existing), nil)
            }
            var target = try ConversationAccess.target(parameters.messageId, in: parameters.conversationId, seenBy: user, reader: writer)
            guard target.kind == .voice, target.recalled == nil else {
                throw ProtocolError(.invalidField, "only voice messages are listened to", field: "messageId")
            }
            guard let sender = target.sender, sender != user, !(target.listenedBy ?? []).contains(user),
                  try Self.sharesListens(user, with: sender, in: conversation, reader: writer) else {
                let from = try ConversationAccess.historyStart(of: parameters.conversationId, for: user, reader: writer)
                return (ListenResult(message: try Self.shown(target, reader: writer, rules: rules, from: from)), nil)
            }
            target.listenedBy = (target.listenedBy ?? []) + [user]
            try writer.replaceMessage(target)
            let event: Message
            do {
                event = try writer.appendMessage(NewMessage(
                    conversationID: conversation.id, sender: user, clientID: parameters.clientId, kind: .system,
                    system: SystemNotice(type: .messageListened, actor: user, messageId: parameters.messageId), createdAt: now),
                    markingReadBySender: conversation.kind != .room)
            } catch StoreError.conflict("client_id") {
                throw ProtocolError(.invalidField, "this client id was used already; send the action again", field: "clientId")
            }
            let recipients = conversation.kind == .room ? [] : try writer.memberIDs(of: conversation.id)
            let acted = try Self.acted(event: event, target: target, by: user, recipients: recipients, kind: conversation.kind,
                                       reader: writer, rules: rules)
            let own = acted.partial.first { $0.users.contains(user) }?.update ?? acted.update
            return (ListenResult(message: own.message, event: event), acted)
        }
        if let acted = outcome.1 { _ = announce(acted, connection: connection) }
        return outcome.0
    }

    /// Whether `listener`'s play may be shown: they share read receipts, and in a 1:1 the
    /// sender does too (each sees the other's read state only when both share).
    static func sharesListens(_ listener: UserID, with sender: UserID, in conversation: StoredConversation,
                              reader: StoreReader) throws -> Bool {
        if conversation.kind == .user {
            return try ConversationService.sharesReadReceipts(listener, sender, reader: reader)
        }
        return try reader.privacy(of: listener).readReceipts
    }
}
