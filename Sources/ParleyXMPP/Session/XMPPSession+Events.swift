import ParleyCore
import ParleyNet
import ParleyProtocol

// Parley's events (docs/protocol.md) rendered as stanzas for this session.
extension XMPPSession {
    /// From the hub, on any thread: rendered on the loop, in the order they came.
    func receive(event: String, payload: any Encodable & Sendable) {
        loop.execute { self.accept(event, payload) }
    }

    /// Renders the event now, or holds it (and everything after it) while the address of a
    /// user it names is looked up: a group's or room's member this session has not met yet.
    private func accept(_ event: String, _ payload: any Encodable & Sendable) {
        if resolving || chatDelivery == .catchingUp {
            heldEvents.append((event, payload))
            return
        }
        if let unknown = unknownUser(in: event, payload) {
            resolving = true
            heldEvents.append((event, payload))
            let accounts = services.accounts
            Task {
                let profile = try? await accounts.profile(id: unknown)
                self.loop.execute {
                    if let profile {
                        self.services.directory.remember(profile)
                        self.state.withLock { $0.localParts[unknown] = XMPPDirectory.localPart(of: profile) }
                    } else {
                        // Gone: shown by id from now on.
                        self.state.withLock { $0.localParts[unknown] = "~\(unknown.rawValue)" }
                    }
                    self.resolving = false
                    let held = self.heldEvents
                    self.heldEvents = []
                    for (event, payload) in held { self.accept(event, payload) }
                }
            }
            return
        }
        render(event, payload)
    }

    /// A user whose address a group chat event needs and this session does not know.
    private func unknownUser(in event: String, _ payload: any Encodable & Sendable) -> UserID? {
        guard event == EventName.messageNew, let message = payload as? Message else { return nil }
        let users = [message.sender, message.system?.actor, message.system?.target].compactMap { $0 }
        return state.withLock { state in
            guard state.joined[message.conversationId] != nil else { return nil }
            return users.first { state.localParts[$0] == nil }
        }
    }

    private func render(_ event: String, _ payload: any Encodable & Sendable) {
        guard let me else { return }
        switch (event, payload) {
        case (EventName.messageNew, let message as Message):
            if let stanza = chatStanza(message, delayed: false) {
                // Before the initial presence it stays unread and comes with the catch-up.
                guard chatDelivery == .live else { return }
                send(stanza)
                markDelivered(message, me: me.user)
            } else if let carbon = sentCarbon(message) {
                send(carbon)
            } else if let stanza = groupStanza(message, delayed: false) {
                send(stanza)
            } else if let presence = occupantPresence(message) {
                send(presence)
            } else {
                announceSubject(message)
            }
        case (EventName.presence, let presence as Presence):
            guard presence.userId != me.user else { return }
            send(XMLElement("presence", ["type": presence.online ? nil : "unavailable", "from": address(of: presence.userId).description,
                                         "to": me.full.description]))
        case (EventName.friendRequest, let request as FriendRequest):
            guard request.to.id == me.user else { return }
            send(subscriptionRequest(request, to: me.full))
        case (EventName.friendAdded, let friend as Friend):
            announceFriend(friend, me: me)
        case (EventName.friendRemoved, let reference as UserReference):
            let jid = address(of: reference.userId)
            pushRoster(XMLElement("item", namespace: Namespace.roster, ["jid": jid.description, "subscription": "remove"]))
            send(XMLElement("presence", ["type": "unavailable", "from": jid.description, "to": me.full.description]))
            state.withLock { state in
                for (conversation, peer) in state.directPeers where peer == reference.userId { state.directPeers[conversation] = nil }
            }
        case (EventName.forwardedStanza, let forwarded as ForwardedStanza):
            send(raw: forwardedStanza(forwarded, to: me.full), isStanza: true)
        default:
            // Read markers, profile changes, groups and rooms have no XMPP form here yet.
            return
        }
    }
}
