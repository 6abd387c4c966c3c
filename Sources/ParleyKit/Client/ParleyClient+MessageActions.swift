public import ParleyProtocol

// Message actions (docs/protocol.md, "Message actions"), typed. The message acted on is
// stored in the cache in its new state before the call returns, and `.messageUpdated`
// reports it, as it does for the same action made elsewhere.
extension ParleyClient {
    /// `message.edit`: new text for one of the user's text messages. Errors: `not_sender`,
    /// `window_closed`, `not_found`, `invalid_field`.
    @discardableResult
    public func edit(_ message: Message, text: String, clientId: String = ParleyClient.newClientID()) async throws(ParleyError) -> Message {
        let update: MessageUpdate = try await call(Op.MessageEdit.self, EditParameters(
            conversationId: message.conversationId, messageId: message.id, clientId: clientId, text: text))
        applyUpdate(update)
        return update.message
    }

    /// `message.recall`: takes a message back (its sender within the recall window; a
    /// group's owner any time). Errors: `not_sender`, `window_closed`, `not_found`.
    @discardableResult
    public func recall(_ message: Message, clientId: String = ParleyClient.newClientID()) async throws(ParleyError) -> Message {
        let update: MessageUpdate = try await call(Op.MessageRecall.self, MessageActionParameters(
            conversationId: message.conversationId, messageId: message.id, clientId: clientId))
        applyUpdate(update)
        return update.message
    }

    /// `message.react` (or `message.unreact` with `removing`): one emoji. Errors:
    /// `invalid_field` (not one emoji, too many, already there), `not_found`.
    @discardableResult
    public func react(to message: Message, with emoji: String, removing: Bool = false,
                      clientId: String = ParleyClient.newClientID()) async throws(ParleyError) -> Message {
        let parameters = ReactParameters(conversationId: message.conversationId, messageId: message.id, clientId: clientId, emoji: emoji)
        let update: MessageUpdate = removing
            ? try await call(Op.MessageUnreact.self, parameters)
            : try await call(Op.MessageReact.self, parameters)
        applyUpdate(update)
        return update.message
    }

    /// `message.send` of a text that answers `message` (and may mention group members):
    /// sent at once, not through the outbox, so it needs the connection.
    @discardableResult
    public func reply(to message: Message?, text: String, in conversation: ConversationID, mentions: [UserID]? = nil,
                      mentionsAll: Bool = false, clientId: String = ParleyClient.newClientID()) async throws(ParleyError) -> Message {
        let sent: Message = try await call(Op.MessageSend.self, SendParameters(
            conversationId: conversation, clientId: clientId, kind: .text, text: text, replyTo: message?.id,
            mentions: mentions, mentionsAll: mentionsAll ? true : nil))
        ingest([sent])
        return sent
    }

    /// `message.hide`: "delete for me"; the user's other devices hear of it.
    public func hide(_ message: Message) async throws(ParleyError) {
        let reference: MessageReference = try await call(Op.MessageHide.self,
                                                         MessageReference(conversationId: message.conversationId, messageId: message.id))
        applyHidden(reference)
    }

    /// `message.forward`: a copy of `message` (text or image) in `conversation`.
    @discardableResult
    public func forward(_ message: Message, to conversation: ConversationID,
                        clientId: String = ParleyClient.newClientID()) async throws(ParleyError) -> Message {
        let copy: Message = try await call(Op.MessageForward.self, ForwardParameters(
            conversationId: message.conversationId, messageId: message.id, to: conversation, clientId: clientId))
        ingest([copy])
        return copy
    }

    /// `conversation.pin` (or `conversation.unpin` with `removing`): the pinned list after it.
    @discardableResult
    public func pin(_ message: Message, removing: Bool = false,
                    clientId: String = ParleyClient.newClientID()) async throws(ParleyError) -> [PinnedMessage] {
        let parameters = MessageActionParameters(conversationId: message.conversationId, messageId: message.id, clientId: clientId)
        let result: PinResult = removing
            ? try await call(Op.ConversationUnpin.self, parameters)
            : try await call(Op.ConversationPin.self, parameters)
        applyUpdate(result.update)
        return result.pinned
    }

    /// Queues an edit, reaction or recall to go out when the connection is there (at once
    /// when it is): the action outbox keeps it across restarts, and its client id makes the
    /// server store it once however often it is sent.
    public func queue(_ action: PendingAction) throws(ParleyError) {
        try store.enqueueAction(action)
        emit(.outboxChanged)
        requestFlush()
    }

    /// The actions still waiting for the server.
    public func pendingActions() throws(ParleyError) -> [PendingAction] {
        try store.pendingActions()
    }

    /// Sends the waiting actions in order while online; one the server refuses (too late,
    /// not allowed) is dropped, since a retry would be refused again.
    func drainActions() async {
        while running, state == .online, let generation = link?.generation {
            guard let action = (try? store.pendingActions())?.first else { return }
            let result: Result<MessageUpdate, ParleyError> = switch action {
            case .edit(let parameters): await request(Op.MessageEdit.self, parameters, on: generation)
            case .react(let parameters): await request(Op.MessageReact.self, parameters, on: generation)
            case .unreact(let parameters): await request(Op.MessageUnreact.self, parameters, on: generation)
            case .recall(let parameters): await request(Op.MessageRecall.self, parameters, on: generation)
            }
            switch result {
            case .success(let update):
                applyUpdate(update)
            case .failure(let error) where error.isTransient:
                return
            case .failure:
                break
            }
            try? store.removeAction(action.clientId)
            emit(.outboxChanged)
        }
    }

    /// A fresh client id for an action.
    public nonisolated static func newClientID() -> String {
        "a-" + String(UInt64.random(in: 1...UInt64.max), radix: 36)
    }

    /// An action made here or elsewhere: the event keeps the conversation's sequence whole
    /// in the cache; the message acted on is replaced by its new state.
    func applyUpdate(_ update: MessageUpdate) {
        ingest([update.event], report: false)
        try? store.replaceMessage(update.message)
        emit(.messageUpdated(update.message))
    }

    /// The messages whose state a `sync` brought, replaced in the cache.
    func applyUpdated(_ messages: [Message]) {
        for message in messages {
            try? store.replaceMessage(message)
            emit(.messageUpdated(message))
        }
    }

    /// A message hidden for this user: its content leaves the cache.
    func applyHidden(_ reference: MessageReference) {
        guard let cached = try? store.message(id: reference.messageId, in: reference.conversationId) else { return }
        var placeholder = Message(id: cached.id, conversationId: cached.conversationId, seq: cached.seq, sender: cached.sender,
                                  clientId: cached.clientId, kind: cached.kind, createdAt: cached.createdAt)
        placeholder.hidden = true
        try? store.replaceMessage(placeholder)
        emit(.messageUpdated(placeholder))
    }
}
