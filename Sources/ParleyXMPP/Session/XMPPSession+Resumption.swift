import ParleyCore
import ParleyNet
import ParleyProtocol

// Resuming a stream (XEP-0198 §5): a client whose connection broke signs in on a new one and
// asks for its old stream by id. The new session takes over the old one's state and the
// stanzas the client had not acknowledged, and sends those again; the user never went
// offline, so friends see no presence change.
extension XMPPSession {
    /// What a resumed stream takes over from the old one.
    struct Handover: Sendable {
        var resource: String?
        var available: Bool
        var carbons: Bool
        var handled: UInt32
        var directPeers: [ConversationID: UserID]
        var localParts: [UserID: String]
        var joined: [ConversationID: JoinedRoom]
        var userID: UserID?
        /// Stanzas sent and not acknowledged, in order.
        var unacknowledged: [String]
    }

    /// Drops the stanzas the client has acknowledged (`h` counts every stanza it received).
    func acknowledge(upTo count: UInt32) {
        unacknowledged.removeAll { $0.sequence <= count }
    }

    /// Gives this (old) session's state to a new stream and winds this one down: its
    /// connection, if still open, is closed, and it renders nothing more. Nil if it has
    /// already ended.
    func handOver(acknowledged count: UInt32) async -> Handover? {
        await withCheckedContinuation { (continuation: CheckedContinuation<Handover?, Never>) in
            loop.execute {
                guard !self.handedOver else {
                    continuation.resume(returning: nil)
                    return
                }
                let ended = self.state.withLock { state -> Bool in
                    if case .closed = state.phase, !state.registered { return true }
                    return false
                }
                guard !ended else {
                    continuation.resume(returning: nil)
                    return
                }
                self.handedOver = true
                self.resumeTimer?.cancel()
                self.resumeTimer = nil
                self.acknowledge(upTo: count)
                let pending = self.unacknowledged.map { $0.text }
                self.unacknowledged = []
                let handover = self.state.withLock { state in
                    Handover(resource: state.resource, available: state.available, carbons: state.carbons,
                             handled: state.handledStanzas ?? 0, directPeers: state.directPeers, localParts: state.localParts,
                             joined: state.joined, userID: state.account?.profile.id, unacknowledged: pending)
                }
                self.closeConnection()
                continuation.resume(returning: handover)
            }
        }
    }

    /// `<resume previd='…' h='…'/>` on a signed-in, not yet bound stream.
    func resume(_ request: XMLElement, account: Account) async {
        let sm = Namespace.streamManagement
        let user = account.profile.id
        guard let id = request["previd"], let acknowledged = request["h"].flatMap(UInt32.init),
              let old = services.resumable.take(id) else {
            send(XMLElement("failed", namespace: sm, [:], children: [XMLElement("item-not-found", namespace: Namespace.stanzaErrors)]))
            return
        }
        // Only its own user may take a stream over; anyone else leaves it as it was.
        guard old.state.withLock({ $0.account?.profile.id }) == user else {
            services.resumable.hold(id, old)
            send(XMLElement("failed", namespace: sm, [:], children: [XMLElement("item-not-found", namespace: Namespace.stanzaErrors)]))
            return
        }
        // Events for the user are held from the moment this session joins the hub until the
        // old stanzas have been sent again, so they come after them.
        await onLoop { self.resolving = true }
        _ = services.registry.add(self, for: user)
        guard let handover = await old.handOver(acknowledged: acknowledged) else {
            if services.registry.remove(self, for: user) { await services.presence.wentOffline(user) }
            await onLoop { self.releaseHeldEvents() }
            send(XMLElement("failed", namespace: sm, [:], children: [XMLElement("item-not-found", namespace: Namespace.stanzaErrors)]))
            return
        }
        _ = services.registry.remove(old, for: user)
        state.withLock { state in
            state.resource = handover.resource
            state.available = handover.available
            state.carbons = handover.carbons
            state.handledStanzas = handover.handled
            state.resumptionID = id
            state.directPeers = handover.directPeers
            state.localParts = handover.localParts
            state.joined = handover.joined
            state.phase = .bound
            state.registered = true
        }
        services.resumable.hold(id, self)
        cancelAuthTimer()
        services.logger.info("xmpp stream resumed", ["user": .int(Int(user.rawValue)), "resent": .int(handover.unacknowledged.count)])
        await onLoop {
            self.write(XMLElement("resumed", namespace: sm, ["previd": id, "h": String(handover.handled)]).serialized())
            self.counting = true
            self.sentStanzas = acknowledged
            self.chatDelivery = handover.available ? .live : .awaitingPresence
            for text in handover.unacknowledged {
                self.keep(text)
                self.write(text)
            }
            self.releaseHeldEvents()
        }
    }

    /// Renders the events held while resuming, in order.
    func releaseHeldEvents() {
        resolving = false
        let held = heldEvents
        heldEvents = []
        for event in held { renderLater(event) }
    }

    /// Runs `body` on the loop and waits for it.
    func onLoop(_ body: @escaping @Sendable () -> Void) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            loop.execute {
                body()
                continuation.resume()
            }
        }
    }
}
