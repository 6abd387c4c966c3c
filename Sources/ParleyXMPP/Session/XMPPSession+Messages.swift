import Foundation
import ParleyCore
import ParleyNet
import ParleyProtocol

// 1:1 chat: `<message type='chat'>` to a friend is a Parley message in their 1:1
// conversation, and Parley's messages come back as such stanzas.
extension XMPPSession {
    func handleMessage(_ message: XMLElement) async {
        guard let me else { return }
        let type = message["type"] ?? "normal"
        guard type != "error" else { return }
        if type == "groupchat" || message["to"].flatMap(JID.init)?.domain == conferenceDomain {
            await handleGroupMessage(message, me: me)
            return
        }
        guard type == "chat" || type == "normal" else {
            send(StanzaError.badRequest("messages are chat, normal or groupchat").reply(to: message, from: domain))
            return
        }
        guard let to = message["to"].flatMap(JID.init) else {
            send(StanzaError(type: "modify", condition: "jid-malformed", "a message needs a to address").reply(to: message, from: domain))
            return
        }
        do {
            let recipient = try await services.directory.user(for: to)
            if let invitation = message.child("x", namespace: Namespace.conference) {
                try await forwardDirectInvitation(message, invitation, to: recipient, me: me)
                return
            }
            try await sendDirect(message, to: recipient, me: me)
        } catch {
            send(StanzaError.from(error).reply(to: message, from: domain))
        }
    }

    /// A chat message to a user: its body stored in their 1:1 conversation (which needs the
    /// two to be friends), chat states and receipts handed to their XMPP sessions.
    func sendDirect(_ message: XMLElement, to recipient: UserID, me: (user: UserID, bare: JID, full: JID)) async throws(ProtocolError) {
        if try await handleMessageAction(message, to: recipient, me: me) { return }
        guard let body = message.child("body")?.text, !body.allSatisfy(\.isWhitespace) else {
            try await handlers.signals.forward(message, from: me, to: recipient, context: self)
            return
        }
        // The conversation with a friend this session knows (from its roster) needs no read:
        // `send` checks the friendship and blocks itself, inside its write.
        let conversation: ConversationID
        if let known = state.directPeers.first(where: { $0.value == recipient })?.key {
            conversation = known
        } else {
            conversation = try await services.social.directConversation(of: me.user, with: recipient)
        }
        // The stanza id is the client id, so a client's retry of the same stanza is stored once.
        _ = try await sendBody(of: message, body, in: conversation, me: me.user)
    }

    /// The stanza's id as the message's client id (so a retried stanza is stored once), or a
    /// random one when it has none or one too long for the core.
    func clientID(for stanza: XMLElement) -> String {
        stanza["id"].flatMap { services.conversations.clientIDLimit.allows($0) ? $0 : nil }
            ?? "xmpp-" + Base64.encode(CryptoRandom.bytes(12))
    }

    /// Hands a `<message>` that Parley does not store (invitations; chat states and receipts
    /// are `ChatSignalHandler`'s) to
    /// `recipient`'s XMPP sessions through the registry: on this server or any other of a
    /// cluster. Native clients have no form for these and never get them.
    func forward(_ stanza: ForwardedStanza, to recipient: UserID) {
        services.registry.forward(stanza, to: [recipient], excluding: nil)
    }

    /// A forwarded message addressed to this session.
    func forwardedStanza(_ forwarded: ForwardedStanza, to target: JID) -> String {
        var text = "<message"
        if let type = forwarded.type { text += " type='" + XMLEscaping.attribute(type) + "'" }
        if let id = forwarded.id { text += " id='" + XMLEscaping.attribute(id) + "'" }
        text += " from='" + XMLEscaping.attribute(forwarded.from) + "' to='" + XMLEscaping.attribute(target.description) + "'>"
        return text + forwarded.children + "</message>"
    }

    /// A stored message as a chat stanza to this session, or nil if it is not one for it
    /// (not 1:1, sent by this user, or a system notice).
    func chatStanza(_ message: Message, delayed: Bool) -> XMLElement? {
        guard let me, let sender = message.sender, sender != me.user,
              state.directPeers[message.conversationId] == sender,
              var stanza = services.plainStanza(message, from: address(of: sender), to: me.full) else { return nil }
        stanza.append(XMLElement("request", namespace: Namespace.receipts))
        stanza.append(XMLElement("stanza-id", namespace: Namespace.stanzaID, ["id": XMPPServices.archiveID(message), "by": me.bare.description]))
        if delayed {
            stanza.append(XMLElement("delay", namespace: Namespace.delay, ["from": domain, "stamp": Timestamp.iso8601(milliseconds: message.createdAt)]))
        }
        return stanza
    }

    /// A copy of a message the user sent from another device, for a session that enabled
    /// carbons (XEP-0280); nil otherwise.
    func sentCarbon(_ message: Message) -> XMLElement? {
        guard let me, message.sender == me.user, state.carbons,
              let peer = state.directPeers[message.conversationId],
              let copy = services.plainStanza(message, from: me.bare, to: address(of: peer)) else { return nil }
        return XMLElement("message", ["from": me.bare.description, "to": me.full.description, "type": "chat"], children: [
            XMLElement("sent", namespace: Namespace.carbons, [:], children: [
                XMLElement("forwarded", namespace: Namespace.forward, [:], children: [copy]),
            ]),
        ])
    }

    /// Messages delivered to an XMPP client count as read (XMPP's servers hand messages over
    /// and forget them), so the next sign-in does not deliver them again. The moves are
    /// coalesced (`ReadMarkQueue`): one write at a time per session, each to the newest
    /// message delivered in its conversation.
    func markDelivered(_ message: Message, me: UserID) {
        guard state.readMarks.offer(message.conversationId, seq: message.seq) else { return }
        let conversations = services.conversations
        let token = self.token
        Task(executorPreference: loop) {
            while let mark = await self.nextReadMark() {
                try? await conversations.moveReadMarker(for: me, ReadParameters(conversationId: mark.conversation, seq: mark.seq),
                                                        connection: token)
            }
        }
    }

    private func nextReadMark() -> (conversation: ConversationID, seq: Int64)? {
        state.readMarks.next()
    }

    /// The unread 1:1 messages, oldest first, marked with when they were sent (XEP-0203);
    /// returns the newest sequence sent in each conversation.
    func deliverUnread(me: (user: UserID, bare: JID, full: JID)) async -> [ConversationID: Int64] {
        let conversations = services.conversations
        guard let list = try? await conversations.list(for: me.user) else { return [:] }
        let unread = list.conversations.filter { $0.kind == .user && $0.unread > 0 }
        guard !unread.isEmpty else { return [:] }
        let since = Dictionary(unread.map { ($0.id.description, $0.readSeq) }, uniquingKeysWith: { a, _ in a })
        guard let missed = try? await conversations.sync(for: me.user, SyncParameters(since: since)) else { return [:] }
        var newest: [ConversationID: Message] = [:]
        for message in missed.messages where since[message.conversationId.description] != nil {
            if let stanza = chatStanza(message, delayed: true) { send(stanza) }
            if message.seq > newest[message.conversationId]?.seq ?? 0 { newest[message.conversationId] = message }
        }
        for message in newest.values { markDelivered(message, me: me.user) }
        return newest.mapValues(\.seq)
    }

    /// Ends the catch-up (on the loop): events held meanwhile are rendered, except the
    /// peers' messages it already sent.
    func finishCatchUp(delivered: [ConversationID: Int64], me: UserID) {
        chatDelivery = .live
        state.caughtUpThrough = delivered
        heldEvents.removeAll { event in
            guard let message = event.message, message.sender != me,
                  let through = delivered[message.conversationId] else { return false }
            return message.seq <= through
        }
        if !resolving { releaseHeldEvents() }
    }
}

/// XMPP's timestamps (XEP-0082): UTC, with milliseconds.
enum Timestamp {
    static func iso8601(milliseconds: Int64) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
    }
}
