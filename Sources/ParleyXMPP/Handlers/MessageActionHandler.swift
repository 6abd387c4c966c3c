import ParleyCore
import ParleyNet
import ParleyProtocol

/// Message actions from a Jabber client in a 1:1 chat (docs/xmpp.md): a correction
/// (XEP-0308) is an edit, a retraction (XEP-0424) a recall, reactions (XEP-0444) Parley's
/// reactions, and a reply (XEP-0461) a message with `replyTo`. A stanza names a message by
/// the id it travelled with: its client id (the stanza id of a message sent over XMPP, the
/// `id` this gateway gives the messages it renders), else its server id. The other way, a
/// friend's action reaches the stream as the same stanzas (`XMPPSession.messageActionStanza`).
struct MessageActionHandler: Sendable {
    /// Handles `stanza` if it carries a message action; false if it carries none (an
    /// ordinary message, for `sendDirect`).
    func handle(_ stanza: XMLElement, to recipient: UserID, me: XMPPIdentity,
                context: isolated some XMPPHandlerContext) async throws(ProtocolError) -> Bool {
        guard Self.carriesAction(stanza) else { return false }
        let conversation: ConversationID
        if let known = context.knownConversation(with: recipient) {
            conversation = known
        } else {
            conversation = try await context.services.social.directConversation(of: me.user, with: recipient)
        }
        return try await perform(stanza, in: conversation, others: [recipient], me: me, context: context)
    }

    /// Whether `stanza` carries a correction, retraction, reactions or a reply.
    static func carriesAction(_ stanza: XMLElement) -> Bool {
        stanza.child("replace", namespace: Namespace.correction) != nil || stanza.child("retract", namespace: Namespace.retraction) != nil
            || stanza.child("reactions", namespace: Namespace.reactions) != nil || stanza.child("reply", namespace: Namespace.reply) != nil
    }

    /// The action `stanza` carries, in `conversation` (a 1:1 chat, or a group chat the stream
    /// joined: XEP-0308, XEP-0424 and XEP-0444 in MUC name messages the same way, a room's by
    /// its `<stanza-id>`, the server id). `others` are the people besides the user whose
    /// messages a reaction or reply may name by their client id. False when it carries none.
    func perform(_ stanza: XMLElement, in conversation: ConversationID, others: [UserID], me: XMPPIdentity,
                 context: isolated some XMPPHandlerContext) async throws(ProtocolError) -> Bool {
        let services = context.services
        let token = context.token
        let replace = stanza.child("replace", namespace: Namespace.correction)
        let retract = stanza.child("retract", namespace: Namespace.retraction)
        let reactions = stanza.child("reactions", namespace: Namespace.reactions)
        let reply = stanza.child("reply", namespace: Namespace.reply)
        guard replace != nil || retract != nil || reactions != nil || reply != nil else { return false }
        let actions = services.conversations.actions
        func target(_ element: XMLElement, sentBy senders: [UserID]) async throws(ProtocolError) -> Message {
            guard let id = element["id"], let found = try await actions.message(id, in: conversation, sentBy: senders, for: me.user) else {
                throw ProtocolError(.notFound, "no such message in this chat", field: "id")
            }
            return found
        }
        let body = stanza.child("body")?.text
        if let replace {
            guard let body, !body.allSatisfy(\.isWhitespace) else { throw ProtocolError(.invalidField, "a correction needs a body", field: "body") }
            let original = try await target(replace, sentBy: [me.user])
            _ = try await actions.edit(by: me.user, EditParameters(conversationId: conversation, messageId: original.id,
                                                                   clientId: services.clientID(for: stanza), text: body), connection: token)
        } else if let retract {
            let original = try await target(retract, sentBy: [me.user])
            _ = try await actions.recall(by: me.user, MessageActionParameters(conversationId: conversation, messageId: original.id,
                                                                              clientId: services.clientID(for: stanza)), connection: token)
        } else if let reactions {
            // XEP-0444 sends the whole set of the sender's reactions: what is new is added,
            // what is gone removed.
            let original = try await target(reactions, sentBy: others + [me.user])
            let wanted = reactions.elements.filter { $0.name == "reaction" }.map(\.text)
            let mine = (original.reactions ?? []).filter { $0.users.contains(me.user) }.map(\.emoji)
            for emoji in mine where !wanted.contains(emoji) {
                _ = try await actions.unreact(by: me.user, ReactParameters(conversationId: conversation, messageId: original.id,
                                                                           clientId: Self.actionClientID(), emoji: emoji), connection: token)
            }
            var added = Set<String>()
            for emoji in wanted where !mine.contains(emoji) && added.insert(emoji).inserted {
                _ = try await actions.react(by: me.user, ReactParameters(conversationId: conversation, messageId: original.id,
                                                                         clientId: Self.actionClientID(), emoji: emoji), connection: token)
            }
        } else if let reply {
            guard let body, !body.allSatisfy(\.isWhitespace) else { return false }
            let quoted = try await target(reply, sentBy: others + [me.user])
            _ = try await services.conversations.send(from: me.user, SendParameters(
                conversationId: conversation, clientId: services.clientID(for: stanza), kind: .text, text: Self.withoutFallback(body, stanza),
                replyTo: quoted.id), connection: token)
        }
        return true
    }

    /// A reply's body without the quote XEP-0461's fallback put before it (marked by a
    /// `<fallback for='urn:xmpp:reply:0'><body start end/></fallback>`, in characters).
    static func withoutFallback(_ body: String, _ stanza: XMLElement) -> String {
        guard let fallback = stanza.elements.first(where: { $0.name == "fallback" && $0["for"] == Namespace.reply }),
              let range = fallback.child("body"), let start = range["start"].flatMap(Int.init), let end = range["end"].flatMap(Int.init),
              start == 0, end > 0, end <= body.unicodeScalars.count else { return body }
        let rest = String(String.UnicodeScalarView(body.unicodeScalars.dropFirst(end)))
        return rest.allSatisfy(\.isWhitespace) ? body : rest
    }

    /// A fresh client id for an action a stanza implies but does not name (one per reaction).
    static func actionClientID() -> String {
        "xmpp-a-" + Base64.encode(CryptoRandom.bytes(12))
    }
}
