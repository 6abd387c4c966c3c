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
        // Asked for a receipt or markable: answered when the native peer's markers pass it
        // (`conversation.receipt`). A peer with Jabber streams here answers itself.
        if let id = message["id"], !context.services.resources.hasStreams(recipient) {
            let receipt = message.child("request", namespace: Namespace.receipts) != nil
            let markable = message.child("markable", namespace: Namespace.chatMarkers) != nil
            let answer = context.services.resources.awaitReceipt(me.user, AwaitedReceipts.Sent(
                conversation: stored.conversationId, seq: stored.seq, stanzaID: id, receipt: receipt, markable: markable))
            for stanza in answer.stanzas(from: context.address(of: recipient), to: me.full) { context.send(stanza) }
        }
    }
}
