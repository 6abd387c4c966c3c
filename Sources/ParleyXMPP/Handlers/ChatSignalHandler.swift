import ParleyCore
import ParleyProtocol

/// Chat states (XEP-0085), delivery receipts (XEP-0184) and chat markers (XEP-0333) on a
/// body-less `<message>` to a user, none of them stored. Composing and paused become Parley's
/// typing (`ChatStateBridge`), which reaches native and Jabber clients alike; receipts and
/// markers are handed to the recipient's XMPP sessions through the registry (on this server or
/// any other of a cluster). Friends only and with no block between, as a stored message.
///
/// Held by the table as a field rather than looked up: it sits on the 1:1 message path,
/// which gets no per-stanza dispatch beyond the session's own.
struct ChatSignalHandler: Sendable {
    var features: [String] { [Namespace.receipts, Namespace.chatStates, Namespace.chatMarkers] }

    func forward(_ message: XMLElement, from me: XMPPIdentity, to recipient: UserID,
                 context: isolated some XMPPHandlerContext) async throws(ProtocolError) {
        let services = context.services
        // Not stored, so not checked by `send`: friends only, and no blocks between.
        let conversation = try await services.social.directConversation(of: me.user, with: recipient, reachable: true)
        // Chat states go through Parley's typing, which reaches native and Jabber clients alike.
        if let composing = ChatStateBridge.composing(in: message) {
            try await ChatStateBridge.relay(composing: composing, from: me.user, in: conversation, services: services)
        }
        let signals = message.elements.filter { $0.namespace == Namespace.receipts || $0.namespace == Namespace.chatMarkers }
        guard !signals.isEmpty else { return }
        await acknowledge(signals, from: me, peer: recipient, in: conversation, context: context)
        services.registry.forward(ForwardedStanza(type: message["type"] ?? "chat", id: message["id"], from: me.full.description,
                                                  children: signals.map { $0.serialized() }.joined()),
                                  to: [recipient], excluding: nil)
    }

    /// The client's own acknowledgements of the peer's messages move this user's markers, one
    /// at a time as Parley keeps them: a receipt (XEP-0184 `<received/>`, or XEP-0333's
    /// `received` marker) moves the delivered marker only; `displayed` (or `acknowledged`)
    /// moves the read marker, and so the unread count of the user's other devices and the
    /// peer's read tick. A stanza id names a message as the gateway sent it (its client id,
    /// else its server id); one the user may not read or that is not the peer's is ignored,
    /// as XMPP ignores a marker for an unknown message.
    private func acknowledge(_ signals: [XMLElement], from me: XMPPIdentity, peer: UserID, in conversation: ConversationID,
                             context: isolated some XMPPHandlerContext) async {
        let services = context.services
        var delivered: Int64 = 0
        var read: Int64 = 0
        for signal in signals {
            guard let id = signal["id"],
                  let found = try? await services.conversations.actions.message(id, in: conversation, sentBy: [peer], for: me.user),
                  found.sender == peer else { continue }
            switch (signal.name, signal.namespace) {
            case ("received", _):
                delivered = max(delivered, found.seq)
            case ("displayed", Namespace.chatMarkers), ("acknowledged", Namespace.chatMarkers):
                read = max(read, found.seq)
            default:
                continue
            }
        }
        if read > 0 {
            try? await services.conversations.moveReadMarker(for: me.user, ReadParameters(conversationId: conversation, seq: read),
                                                             connection: context.token)
        } else if delivered > 0 {
            await services.conversations.moveDeliveredMarker(for: me.user, in: conversation, to: delivered)
        }
    }
}
