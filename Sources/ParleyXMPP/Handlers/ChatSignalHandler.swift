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
        services.registry.forward(ForwardedStanza(type: message["type"] ?? "chat", id: message["id"], from: me.full.description,
                                                  children: signals.map { $0.serialized() }.joined()),
                                  to: [recipient], excluding: nil)
    }
}
