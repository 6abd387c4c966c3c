import Foundation
import ParleyCore
import ParleyNet
import ParleyProtocol

// 1:1 chat delivered to the stream: Parley's messages as chat stanzas, carbons, the catch-up
// after the first presence, and read markers moved for what was delivered (the client's
// own messages are `MessageHandler`'s).
extension XMPPSession {
    /// A forwarded message or presence addressed to this session.
    func forwardedStanza(_ forwarded: ForwardedStanza, to target: JID) -> String {
        let name = forwarded.stanza ?? "message"
        var text = "<" + name
        if let type = forwarded.type { text += " type='" + XMLEscaping.attribute(type) + "'" }
        if let id = forwarded.id { text += " id='" + XMLEscaping.attribute(id) + "'" }
        text += " from='" + XMLEscaping.attribute(forwarded.from) + "' to='" + XMLEscaping.attribute(target.description) + "'"
        return forwarded.children.isEmpty ? text + "/>" : text + ">" + forwarded.children + "</" + name + ">"
    }

    /// The full JID a user's stored message came from (RFC 6120 §8.1.2.1), and its
    /// `<origin-id>` if one of this server's streams sent it (`XMPPResources`); a message
    /// from a native client comes from the sending connection's resource when the native
    /// side noted it (`NativeResources.sending`), else from `parley`.
    func origin(of message: Message, sender: UserID) -> (from: JID, originID: String?) {
        let origin = services.resources.origin(of: sender, clientID: message.clientId)
        let resource = origin?.resource ?? services.nativeResources.origin(of: sender, clientID: message.clientId) ?? XMPPResources.nativeResource
        return (JID(local: nick(of: sender), domain: domain, resource: resource), origin?.originID)
    }

    /// A stored message as a chat stanza to this session, or nil if it is not one for it
    /// (not 1:1, sent by this user, or a system notice).
    func chatStanza(_ message: Message, delayed: Bool) -> XMLElement? {
        guard let me, let sender = message.sender, sender != me.user,
              state.directPeers[message.conversationId] == sender else { return nil }
        let origin = origin(of: message, sender: sender)
        guard var stanza = services.plainStanza(message, from: origin.from, to: me.full) else { return nil }
        // Room for what follows at once, not grown by each append.
        stanza.children.reserveCapacity(stanza.children.count + 4)
        stanza.append(XMLElement("request", namespace: Namespace.receipts))
        if let originID = origin.originID { stanza.append(XMLElement("origin-id", namespace: Namespace.stanzaID, ["id": originID])) }
        stanza.append(XMLElement("stanza-id", namespace: Namespace.stanzaID, ["id": XMPPServices.archiveID(message), "by": me.bare.description]))
        if delayed {
            stanza.append(XMLElement("delay", namespace: Namespace.delay, ["from": domain, "stamp": Timestamp.iso8601(milliseconds: message.createdAt)]))
        }
        return stanza
    }

    /// A copy of a message the user sent from another device, for a session that enabled
    /// carbons (XEP-0280): the original stanza, from the full JID that sent it (§8), with its
    /// origin and archive ids; nil otherwise.
    func sentCarbon(_ message: Message) -> XMLElement? {
        guard let me, message.sender == me.user, state.carbons,
              let peer = state.directPeers[message.conversationId] else { return nil }
        let origin = origin(of: message, sender: me.user)
        guard var copy = services.plainStanza(message, from: origin.from, to: address(of: peer)) else { return nil }
        if let originID = origin.originID { copy.append(XMLElement("origin-id", namespace: Namespace.stanzaID, ["id": originID])) }
        copy.append(XMLElement("stanza-id", namespace: Namespace.stanzaID, ["id": XMPPServices.archiveID(message), "by": me.bare.description]))
        return XMLElement("message", ["from": me.bare.description, "to": me.full.description, "type": "chat"], children: [
            XMLElement("sent", namespace: Namespace.carbons, [:], children: [
                XMLElement("forwarded", namespace: Namespace.forward, [:], children: [copy]),
            ]),
        ])
    }

    /// A message handed to an XMPP client was delivered (it reached one of the user's
    /// connections), so the user's delivered marker moves and the next sign-in does not hand
    /// it over again; it is read only when the client says so (`<displayed/>`,
    /// `ChatSignalHandler`). The moves are coalesced (`ReadMarkQueue`): one write at a time
    /// per session, each to the newest message delivered in its conversation.
    func markDelivered(_ message: Message, me: UserID) {
        guard state.readMarks.offer(message.conversationId, seq: message.seq) else { return }
        let conversations = services.conversations
        // Isolated to the session and started at once, preferring the loop (as stanzas are,
        // `processNext`): the move runs here up to the store's queue and resumes here once,
        // after its write.
        Task.immediate(executorPreference: loop) {
            while let mark = self.state.readMarks.next() {
                await conversations.moveDeliveredMarker(for: me, in: mark.conversation, to: mark.seq)
            }
        }
    }

    /// The unread 1:1 messages no connection of the user got yet (past the delivered
    /// marker), oldest first, marked with when they were sent (XEP-0203); returns the newest
    /// sequence sent in each conversation. A message that reached this stream before its
    /// initial presence, and so was held back, moved the delivered marker already: it is
    /// sent all the same (`heldBeforePresence`).
    func deliverUnread(me: (user: UserID, bare: JID, full: JID)) async -> [ConversationID: Int64] {
        let conversations = services.conversations
        guard let list = try? await conversations.list(for: me.user) else { return [:] }
        let unread = list.conversations.filter { $0.kind == .user && $0.unread > 0 }
        guard !unread.isEmpty else { return [:] }
        let delivered = (try? await conversations.deliveredMarkers(of: me.user, in: unread.map(\.id))) ?? [:]
        let since = Dictionary(unread.map { summary in
            var from = max(summary.readSeq, delivered[summary.id] ?? 0)
            if let held = state.heldBeforePresence[summary.id] { from = min(from, held - 1) }
            return (summary.id.description, from)
        }, uniquingKeysWith: { a, _ in a })
        state.heldBeforePresence = [:]
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
