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
        /// Whether the resource is available now (its presence goes on with the new stream).
        var present: Bool
        var carbons: Bool
        var handled: UInt32
        var directPeers: [ConversationID: UserID]
        var localParts: [UserID: String]
        var joined: [ConversationID: JoinedRoom]
        var userID: UserID?
        /// Stanzas sent and not acknowledged, in order.
        var unacknowledged: [String]
        /// The client's caps (XEP-0115): a resumed client need not send its presence again.
        var capsKey: String? = nil
    }

    /// Drops the stanzas the client has acknowledged (`h` counts every stanza it received).
    func acknowledge(upTo count: UInt32) {
        unacknowledged.removeAll { $0.sequence <= count }
    }

    /// Gives this (old) session's state to a new stream and winds this one down: its
    /// connection, if still open, is closed, and it renders nothing more. Nil if it has
    /// already ended. Runs on the old session's loop (its actor), which the new one awaits.
    func handOver(acknowledged count: UInt32) -> Handover? {
        guard !handedOver else { return nil }
        if case .closed = state.phase, !state.registered { return nil }
        handedOver = true
        resumeTimer?.cancel()
        resumeTimer = nil
        acknowledge(upTo: count)
        let pending = unacknowledged.map { $0.text }
        unacknowledged = []
        let handover = Handover(resource: state.resource, available: state.available, present: state.present, carbons: state.carbons,
                                handled: state.handledStanzas ?? 0, directPeers: state.directPeers, localParts: state.localParts,
                                joined: state.joined, userID: state.account?.profile.id, unacknowledged: pending,
                                capsKey: state.capsKey)
        closeConnection()
        return handover
    }

    /// The signed-in user, if any.
    var userID: UserID? { state.account?.profile.id }

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
        guard await old.userID == user else {
            services.resumable.hold(id, old)
            send(XMLElement("failed", namespace: sm, [:], children: [XMLElement("item-not-found", namespace: Namespace.stanzaErrors)]))
            return
        }
        // Events for the user are held from the moment this session joins the hub until the
        // old stanzas have been sent again, so they come after them.
        resolving = true
        _ = services.registry.add(self, for: user)
        guard let handover = await old.handOver(acknowledged: acknowledged) else {
            if services.registry.remove(self, for: user) { await services.presence.wentOffline(user) }
            send(XMLElement("failed", namespace: sm, [:], children: [XMLElement("item-not-found", namespace: Namespace.stanzaErrors)]))
            releaseHeldEvents()
            return
        }
        _ = services.registry.remove(old, for: user)
        if let resource = handover.resource {
            services.resources.takeOver(user, resource: resource, from: old.token, to: token)
        }
        state.resource = handover.resource
        state.available = handover.available
        state.present = handover.present
        state.carbons = handover.carbons
        state.handledStanzas = handover.handled
        state.resumptionID = id
        state.directPeers = handover.directPeers
        state.localParts = handover.localParts
        state.joined = handover.joined
        state.capsKey = handover.capsKey
        state.phase = .bound
        state.registered = true
        services.resumable.hold(id, self)
        cancelSignInDeadline()
        services.logger.info("xmpp stream resumed", ["user": .int(Int(user.rawValue)), "resent": .int(handover.unacknowledged.count)])
        write(XMLElement("resumed", namespace: sm, ["previd": id, "h": String(handover.handled)]).serialized())
        counting = true
        sentStanzas = acknowledged
        chatDelivery = handover.available ? .live : .awaitingPresence
        for text in handover.unacknowledged {
            keep(text)
            write(text)
        }
        releaseHeldEvents()
    }

    /// Renders the events held (while resuming, catching up or looking up an address) now,
    /// in order, before any event the loop has queued meanwhile: queuing them again would let
    /// a newer event that came during the hold overtake them. One that needs a look-up holds
    /// itself and the rest again.
    func releaseHeldEvents() {
        resolving = false
        let held = heldEvents
        heldEvents = []
        for event in held { accept(event) }
    }
}
