import ParleyCore
import ParleyNet
import ParleyProtocol

// Presence (RFC 6121) from the client: its own availability, which starts the catch-up;
// presence to rooms goes to multi-user chat and subscriptions to `SubscriptionHandler`
// through the handler table.
extension XMPPSession {
    /// Remembers a friend's address and 1:1 conversation.
    func learn(_ friend: Friend) {
        services.directory.remember(friend.user)
        state.directPeers[friend.conversationId] = friend.user.id
        state.localParts[friend.user.id] = XMPPDirectory.localPart(of: friend.user)
    }

    /// A roster push (RFC 6121 §2.1.6) to this session.
    func pushRoster(_ item: XMLElement) {
        guard let me else { return }
        send(RosterHandler.push(item, to: me.full))
    }

    // MARK: Presence from the client

    func handlePresence(_ presence: XMLElement) async {
        guard let me else { return }
        let type = presence["type"] ?? "available"
        guard let to = presence["to"] else {
            // Our own availability: Parley's presence follows connections, so only the first
            // one matters, which is when the client is ready for what waited for it.
            guard type == "available" else { return }
            let first = !state.available
            state.available = true
            if first { await deliverInitial(me: me) }
            return
        }
        guard let jid = JID(to) else {
            send(StanzaError(type: "modify", condition: "jid-malformed", "not a JID").reply(to: presence, from: domain))
            return
        }
        if jid.domain == conferenceDomain {
            await handleRoomPresence(presence, room: jid, me: me)
            return
        }
        await handlers.presenceHandler(for: type)?.handle(presence, to: jid, me: me, context: self)
    }

    /// After the initial presence: friends who are online, requests waiting, and the 1:1
    /// messages that came while the user had no XMPP connection (unread ones).
    private func deliverInitial(me: (user: UserID, bare: JID, full: JID)) async {
        chatDelivery = .catchingUp
        let social = services.social
        if let friends = try? await social.allFriends(of: me.user) {
            for friend in friends {
                learn(friend)
                if friend.online { send(XMLElement("presence", ["from": address(of: friend.user.id).description, "to": me.full.description])) }
            }
        }
        if let requests = try? await social.allIncomingRequests(of: me.user) {
            for request in requests { send(SubscriptionHandler.request(request, to: me.full, directory: services.directory)) }
        }
        let delivered = await deliverUnread(me: me)
        finishCatchUp(delivered: delivered, me: me.user)
    }
}
