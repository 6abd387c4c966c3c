import ParleyCore
import ParleyNet
import ParleyProtocol

// Parley's events (docs/protocol.md) rendered as stanzas for this session.
extension XMPPSession {
    /// From the hub, on any thread: rendered on the loop, in the order they came.
    nonisolated func receive(_ event: ServerEvent) {
        // A receipt about a peer with Jabber streams here renders as nothing (that peer's
        // clients answer themselves, `render`): dropped here, before the hop to the loop.
        if case .conversationReceipt(let receipt) = event, services.resources.hasStreams(receipt.userId) { return }
        renderLater(.server(event))
    }

    /// From another session of this gateway, on any thread: in order with the events.
    nonisolated func receive(forwarded stanza: ForwardedStanza) {
        renderLater(.forwarded(stanza))
    }

    /// Renders `event` on the loop, after what is queued there already (a plain loop task,
    /// which keeps the order events came in).
    nonisolated func renderLater(_ event: GatewayEvent) {
        loop.execute { self.assumeIsolated { $0.accept(event) } }
    }

    /// Renders the event now, or holds it (and everything after it) while the address of a
    /// user it names is looked up: a group's or room's member this session has not met yet.
    func accept(_ event: GatewayEvent) {
        if resolving || chatDelivery == .catchingUp {
            heldEvents.append(event)
            return
        }
        if let unknown = unknownUser(in: event) {
            resolving = true
            heldEvents.append(event)
            let accounts = services.accounts
            Task(executorPreference: loop) {
                let profile = try? await accounts.profile(id: unknown)
                await self.resolved(unknown, profile)
            }
            return
        }
        render(event)
    }

    /// The look-up of `user` is done: the held events are rendered (or held again) in order.
    private func resolved(_ user: UserID, _ profile: UserProfile?) {
        if let profile {
            services.directory.remember(profile)
            state.localParts[user] = XMPPDirectory.localPart(of: profile)
        } else {
            // Gone: shown by id from now on.
            state.localParts[user] = "~\(user.rawValue)"
        }
        releaseHeldEvents()
    }

    /// A user whose address a group chat event needs and this session does not know.
    private func unknownUser(in event: GatewayEvent) -> UserID? {
        // Matched in place (no copy of the message) and asked of group chats only: every 1:1
        // message passes here.
        guard case .server(.messageNew(let message)) = event, state.joined[message.conversationId] != nil else { return nil }
        let users = [message.sender, message.system?.actor, message.system?.target].compactMap { $0 }
        return users.first { localPart(of: $0) == nil }
    }

    private func render(_ event: GatewayEvent) {
        guard let me else { return }
        switch event {
        case .server(.messageNew(let message)):
            if let stanza = chatStanza(message, delayed: false) {
                // Before the initial presence it stays unread and comes with the catch-up; one
                // the catch-up already sent is not sent twice.
                if chatDelivery == .awaitingPresence {
                    let held = state.heldBeforePresence[message.conversationId] ?? message.seq
                    state.heldBeforePresence[message.conversationId] = min(held, message.seq)
                }
                guard chatDelivery == .live, message.seq > state.caughtUpThrough[message.conversationId] ?? 0 else { return }
                send(stanza)
                // The send's own write moved the marker when it knew this user was online;
                // only when it could not know (the stream came after the write) is it moved here.
                if !services.conversations.deliveredMarkerMoved(for: me.user, in: message.conversationId, through: message.seq) {
                    markDelivered(message, me: me.user)
                }
            } else if let carbon = sentCarbon(message) {
                send(carbon)
            } else if let stanza = groupStanza(message) {
                send(stanza)
            } else if let presence = occupantPresence(message) {
                send(presence)
            } else {
                announceSubject(message)
            }
        case .server(.presence(let presence)):
            // Parley's presence is per user. A user with XMPP streams or native clients here
            // shows each of their resources (forwarded presence) instead; a user connected
            // only to another server of a cluster is the one resource `parley`. Going offline
            // ends that one too (a client that never saw it ignores it).
            guard presence.userId != me.user, state.present,
                  !presence.online || !(services.resources.hasStreams(presence.userId)
                                        || services.nativeResources.hasResources(presence.userId)) else { return }
            let native = JID(local: nick(of: presence.userId), domain: domain, resource: XMPPResources.nativeResource)
            let stanza = PresenceHandler.presence(from: native, to: me.full, children: nil, type: presence.online ? nil : "unavailable")
            if state.inactivity.active {
                send(stanza)
            } else {
                state.inactivity.hold(stanza.serialized(), from: native.description)
            }
        case .server(.friendRequest(let request)):
            guard request.to.id == me.user else { return }
            send(SubscriptionHandler.request(request, to: me.full, directory: services.directory))
        case .server(.friendAdded(let friend)):
            SubscriptionHandler.announce(friend, me: me, context: self)
            // A new contact's last published PEP items (XEP-0163 §6.1.2), once the address is known.
            if state.present {
                Task(executorPreference: loop) { await self.sendLastPublished(me: me, of: [friend.user.id]) }
            }
        case .server(.friendRemoved(let reference)):
            let jid = address(of: reference.userId)
            pushRoster(XMLElement("item", namespace: Namespace.roster, ["jid": jid.description, "subscription": "remove"]))
            send(XMLElement("presence", ["type": "unavailable", "from": jid.description, "to": me.full.description]))
            // Each resource the stream may have seen goes too (RFC 6121 §3.2.3).
            if state.present {
                let resources = services.resources.available(reference.userId).map(\.resource)
                    + services.nativeResources.resources(of: reference.userId).map(\.name) + [XMPPResources.nativeResource]
                for resource in resources {
                    send(PresenceHandler.presence(from: JID(local: jid.local, domain: domain, resource: resource), to: me.full, children: nil,
                                                  type: "unavailable"))
                }
            }
            for (conversation, peer) in state.directPeers where peer == reference.userId { state.directPeers[conversation] = nil }
        case .forwarded(let forwarded):
            // Presence goes only to an available resource (RFC 6121 §4.2.2).
            if forwarded.stanza == "presence" && !state.present { return }
            // A PEP event only to a client whose caps ask for it (XEP-0163 §4.3).
            if let node = CapsFeatures.eventNode(stanza: forwarded.stanza, type: forwarded.type, children: forwarded.children),
               !wantsEvents(of: node) { return }
            if !state.inactivity.active {
                if forwarded.stanza == "presence" {
                    state.inactivity.hold(forwardedStanza(forwarded, to: me.full), from: forwarded.from)
                    return
                }
                if InactiveHold.isOnlyChatState(forwarded) { return }
            }
            send(raw: forwardedStanza(forwarded, to: me.full), isStanza: true)
        case .server(.messageUpdated(let update)):
            if let stanza = messageActionStanza(update) { send(stanza) }
        case .server(.groupDisbanded(let reference)):
            // The group's `group_disbanded` notice came as its last groupchat message; the
            // room is gone, so nothing more is routed to it for this stream.
            state.joined.removeValue(forKey: reference.conversationId)
        case .server(.conversationRead), .server(.meUpdated), .server(.messageHidden), .server(.conversationMuted),
             .server(.resourcePresence):
            // Read markers, profile changes and "delete for me" have no XMPP form here yet;
            // the user's own resources reach XMPP streams as forwarded presence instead.
            return
        case .server(.groupRequestDecided), .server(.groupInvited), .server(.roomKicked):
            // A kick or ban reaches Jabber clients as the room's notice (an occupant's
            // presence with 307 or 301); invitations between Jabber users are mediated by
            // the room (`MUCAdminHandler`), and join requests have no XMPP form.
            return
        case .server(.typing(let notice)):
            // 1:1 only: a group's typing has no chat state form here.
            guard state.directPeers[notice.conversationId] == notice.userId else { return }
            send(ChatStateBridge.stanza(notice, from: address(of: notice.userId).description, to: me.full.description))
        case .server(.conversationReceipt(let receipt)):
            // The native peer's markers moved: the messages this user's Jabber clients sent
            // that asked for it are answered (XEP-0184, XEP-0333). A peer on Jabber streams
            // here answers itself (`ChatSignalHandler`); its markers are not rendered twice.
            guard receipt.userId != me.user, state.directPeers[receipt.conversationId] == receipt.userId,
                  !services.resources.hasStreams(receipt.userId) else { return }
            let answer = services.resources.answerReceipts(me.user, in: receipt.conversationId,
                                                           delivered: receipt.deliveredSeq, read: receipt.readSeq)
            for stanza in answer.stanzas(from: address(of: receipt.userId), to: me.full) { send(stanza) }
        }
    }
}
