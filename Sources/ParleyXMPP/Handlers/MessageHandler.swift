import ParleyCore
import ParleyProtocol

/// `<message>` from the client (RFC 6121 §5): a `chat` or `normal` message with a body to a
/// friend is a Parley message in their 1:1 conversation; one without a body carries chat
/// states and receipts (`ChatSignalHandler`); a direct invitation (XEP-0249) is passed on;
/// messages to the conference service are `MUCHandler`'s.
///
/// Held by the table as a field, not looked up: every message takes this path, which adds no
/// task and no dispatch table per stanza; a stored message costs one more short lock, the
/// note of its sending resource (`XMPPResources.sending`).
struct MessageHandler: Sendable {
    func handle(_ message: XMLElement, me: XMPPIdentity, context: isolated some XMPPHandlerContext) async {
        let services = context.services
        let domain = services.directory.domain
        let type = message["type"] ?? "normal"
        guard type != "error" else { return }
        let to = message["to"].flatMap(JID.init)
        if type == "groupchat" || to?.domain == MUCHandler.domain(of: services) {
            await context.handlers.muc.handleMessage(message, me: me, context: context)
            return
        }
        guard type == "chat" || type == "normal" else {
            context.send(StanzaError.badRequest("messages are chat, normal or groupchat").reply(to: message, from: domain))
            return
        }
        if message["to"] != nil && to == nil {
            context.send(StanzaError(type: "modify", condition: "jid-malformed", "not a JID").reply(to: message, from: domain))
            return
        }
        // No `to` is the sender's own bare JID (RFC 6120 §10.3.1); to the user's own account,
        // it goes to their other streams as sent (Parley keeps no conversation with oneself).
        guard let to, to.bare != me.bare else {
            services.registry.forward(ForwardedStanza(type: type, id: message["id"], from: me.full.description,
                                                      children: message.elements.map { $0.serialized() }.joined()),
                                      to: [me.user], excluding: context.token)
            return
        }
        do {
            let recipient = try await services.directory.user(for: to)
            if let invitation = message.child("x", namespace: Namespace.conference) {
                try await context.handlers.mucAdmin.forwardDirectInvitation(message, invitation, to: recipient, me: me, context: context)
                return
            }
            try await sendDirect(message, to: recipient, me: me, context: context)
        } catch {
            context.send(StanzaError.from(error).reply(to: message, from: domain))
        }
    }

    /// A chat message to a user: its body stored in their 1:1 conversation (which needs the
    /// two to be friends), chat states and receipts handed to their XMPP sessions.
    func sendDirect(_ message: XMLElement, to recipient: UserID, me: XMPPIdentity,
                    context: isolated some XMPPHandlerContext) async throws(ProtocolError) {
        if try await context.handlers.messageActions.handle(message, to: recipient, me: me, context: context) { return }
        guard let body = message.child("body")?.text, !body.allSatisfy(\.isWhitespace) else {
            try await context.handlers.signals.forward(message, from: me, to: recipient, context: context)
            return
        }
        // The conversation with a friend this stream knows (from its roster) needs no read:
        // `send` checks the friendship and blocks itself, inside its write.
        let conversation: ConversationID
        if let known = context.knownConversation(with: recipient) {
            conversation = known
        } else {
            conversation = try await context.services.social.directConversation(of: me.user, with: recipient)
        }
        // The stanza id is the client id, so a client's retry of the same stanza is stored once.
        let stored = try await context.sendBody(of: message, body, in: conversation, me: me)
        awaitReceipt(for: message, stored: stored, to: recipient, me: me, context: context)
    }

    /// `handle` and `sendDirect` with no task, for the common 1:1 message: a `chat` or
    /// `normal` message with a text body to a friend this stream knows (from its roster), by
    /// a username met before, carrying nothing that needs the store first (an action, an
    /// invitation, a link to an upload). Checked and queued for the store here
    /// (`ConversationService.send`'s completion form); after the commit its outcome comes back
    /// on the stream's executor in one hop, where the sender's receipts and markers are
    /// noted and a refusal is answered with its error, as `handle` would, and then
    /// `directSendFinished` lets the stream go on. The stored message's deliveries (to the
    /// recipient's streams, carbons with its stanza-id) are the announcement's, as for any
    /// send. False, having done nothing, for any other stanza: `handle` takes it.
    func startDirect(_ message: XMLElement, me: XMPPIdentity, context: isolated some XMPPHandlerContext) -> Bool {
        let services = context.services
        let type = message["type"] ?? "normal"
        guard type == "chat" || type == "normal", let to = message["to"].flatMap(JID.init), to.bare != me.bare,
              let recipient = services.directory.knownUser(for: to),
              message.child("x", namespace: Namespace.conference) == nil, !MessageActionHandler.carriesAction(message),
              let body = message.child("body")?.text, !body.allSatisfy(\.isWhitespace),
              let conversation = context.knownConversation(with: recipient) else { return false }
        let parameters = services.sendParameters(for: message, body: body, in: conversation)
        guard parameters.kind == .text else { return false }
        context.noteSending(message, clientID: parameters.clientId, me: me)
        let domain = services.directory.domain
        services.conversations.send(from: me.user, parameters, connection: context.token, hop: context.completionHop) { outcome in
            // On the stream's executor: the hop, or at once for a refusal found before the write.
            context.assumeIsolated { context in
                switch outcome {
                case .success(let sent): awaitReceipt(for: message, stored: sent.message, to: recipient, me: me, context: context)
                case .failure(let error): context.send(StanzaError.from(error).reply(to: message, from: domain))
                }
                context.directSendFinished()
            }
        }
        return true
    }

    /// A stored message that asked for a receipt or is markable: answered when the native
    /// peer's markers pass it (`conversation.receipt`). A peer with Jabber streams here
    /// answers itself.
    private func awaitReceipt(for message: XMLElement, stored: Message, to recipient: UserID, me: XMPPIdentity,
                              context: isolated some XMPPHandlerContext) {
        guard let id = message["id"], !context.services.resources.hasStreams(recipient) else { return }
        let receipt = message.child("request", namespace: Namespace.receipts) != nil
        let markable = message.child("markable", namespace: Namespace.chatMarkers) != nil
        let answer = context.services.resources.awaitReceipt(me.user, AwaitedReceipts.Sent(
            conversation: stored.conversationId, seq: stored.seq, stanzaID: id, receipt: receipt, markable: markable))
        for stanza in answer.stanzas(from: context.address(of: recipient), to: me.full) { context.send(stanza) }
    }
}
