import ParleyCore
import ParleyNet
import ParleyProtocol

// Presence and subscriptions (RFC 6121) = Parley's presence and friend requests (the roster
// itself is `RosterHandler`'s). Every friendship is mutual; a pending request is a pending
// subscription.
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
        send(XMLElement("iq", ["type": "set", "id": "push-" + Base64.encode(CryptoRandom.bytes(6)), "to": me.full.description],
                        children: [XMLElement("query", namespace: Namespace.roster, [:], children: [item])]))
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
        do throws(ProtocolError) {
            switch type {
            case "subscribe":
                let other = try await services.directory.user(for: jid)
                let outcome = try await services.social.requestFriend(from: me.user, FriendRequestParameters(userId: other),
                                                                       connection: token)
                // They had asked already: friends at once. The event of that leaves this
                // connection out (it gets the answer instead), so it is told here.
                if let friend = outcome.friend { announceFriend(friend, me: me) }
            case "subscribed":
                let other = try await services.directory.user(for: jid)
                if let request = try await services.social.allIncomingRequests(of: me.user).first(where: { $0.from.id == other }) {
                    learn(try await services.social.accept(request.id, by: me.user))
                }
            case "unsubscribed", "unsubscribe":
                let other = try await services.directory.user(for: jid)
                if type == "unsubscribed",
                   let request = try await services.social.allIncomingRequests(of: me.user).first(where: { $0.from.id == other }) {
                    try await services.social.decline(request.id, by: me.user)
                } else if (try? await services.social.directConversation(of: me.user, with: other)) != nil {
                    try await services.social.removeFriend(other, by: me.user)
                }
            default:
                // Directed availability and probes: Parley tells friends itself.
                return
            }
        } catch {
            if error.code != .alreadyFriends { send(StanzaError(error).reply(to: presence, from: domain)) }
        }
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
            for request in requests { send(subscriptionRequest(request, to: me.full)) }
        }
        let delivered = await deliverUnread(me: me)
        finishCatchUp(delivered: delivered, me: me.user)
    }

    /// A new friend, as roster push, their subscription approval and, if online, presence.
    func announceFriend(_ friend: Friend, me: (user: UserID, bare: JID, full: JID)) {
        learn(friend)
        let from = address(of: friend.user.id).description
        pushRoster(RosterHandler.item(friend.user, subscription: "both", directory: services.directory))
        send(XMLElement("presence", ["type": "subscribed", "from": from, "to": me.bare.description]))
        if friend.online { send(XMLElement("presence", ["from": from, "to": me.full.description])) }
    }

    func subscriptionRequest(_ request: FriendRequest, to: JID) -> XMLElement {
        services.directory.remember(request.from)
        return XMLElement("presence", ["type": "subscribe", "from": services.directory.jid(of: request.from).description, "to": to.description],
                          children: request.greeting.map { [XMLElement("status", [:], text: $0)] } ?? [])
    }
}
