import ParleyCore
import ParleyProtocol

/// Chat states (XEP-0085) ↔ Parley typing, across the native/Jabber boundary: a Jabber
/// client's `<composing/>` to a friend is a `typing.start` (any other state a `typing.stop`),
/// so the friend's every connection hears it with the server's expiry, rate limit, blocks and
/// privacy; and a `typing` event in a 1:1 conversation reaches a Jabber client as
/// `<composing/>` or `<paused/>` from the typist's address.
enum ChatStateBridge {
    /// The chat state child of a body-less message, if any: whether it says "composing".
    static func composing(in message: XMLElement) -> Bool? {
        guard let state = message.elements.first(where: { $0.namespace == Namespace.chatStates }) else { return nil }
        return state.name == "composing"
    }

    /// Starts or stops the sender's typing in their 1:1 conversation with the recipient.
    static func relay(composing: Bool, from user: UserID, in conversation: ConversationID,
                      services: XMPPServices) async throws(ProtocolError) {
        let reference = ConversationReference(conversationId: conversation)
        if composing {
            try await services.conversations.typing.start(by: user, reference)
        } else {
            try services.conversations.typing.stop(by: user, reference)
        }
    }

    /// The stanza for a `typing` event in a 1:1 conversation with `from` (its address).
    static func stanza(_ notice: TypingNotice, from: String, to: String) -> XMLElement {
        XMLElement("message", ["type": "chat", "from": from, "to": to],
                   children: [XMLElement(notice.typing ? "composing" : "paused", namespace: Namespace.chatStates)])
    }
}
