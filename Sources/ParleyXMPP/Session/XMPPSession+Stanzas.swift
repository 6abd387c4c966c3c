import ParleyCore
import ParleyNet
import ParleyProtocol

// Stanzas of a bound stream: the entry point, and the stream's own iq queries.
extension XMPPSession {
    /// Handles one stanza in the order it came; called by the loop one at a time.
    func handle(_ stanza: XMLElement) async {
        let phase = state.phase
        switch phase {
        case .awaitingStream, .closed:
            return
        case .negotiating:
            await negotiate(stanza, step: nil)
        case .sasl(let step):
            await negotiate(stanza, step: step)
        case .bound:
            if stanza.namespace == Namespace.streamManagement {
                manageStream(stanza)
                return
            }
            if stanza.namespace == Namespace.clientStateIndication {
                indicateState(stanza)
                return
            }
            guard stanza.namespace == Namespace.client else {
                fail(.unsupportedStanzaType, "<\(stanza.name)> in \(stanza.namespace) is not supported")
                return
            }
            state.handledStanzas = state.handledStanzas.map { $0 &+ 1 }
            switch stanza.name {
            case "iq": await handleIQ(stanza)
            case "message":
                guard let me else { return }
                await handlers.messages.handle(stanza, me: me, context: self)
            case "presence":
                guard let me else { return }
                if stanza["to"] == nil && stanza["type"] == nil { noteCaps(stanza, me: me) }
                await handlers.presence.handle(stanza, me: me, context: self)
            default: fail(.unsupportedStanzaType, "<\(stanza.name)> is not a stanza")
            }
        }
    }

    /// Stream management (XEP-0198): acknowledgements both ways, and resumption when asked
    /// for (`XMPPSession+Resumption.swift`).
    private func manageStream(_ element: XMLElement) {
        let sm = Namespace.streamManagement
        switch element.name {
        case "enable":
            let wantsResumption = element["resume"] == "true" || element["resume"] == "1"
            let id = Base64.encode(CryptoRandom.bytes(18))
            guard state.handledStanzas == nil else {
                send(XMLElement("failed", namespace: sm, [:], children: [XMLElement("unexpected-request", namespace: Namespace.stanzaErrors)]))
                return
            }
            state.handledStanzas = 0
            if wantsResumption {
                state.resumptionID = id
                services.resumable.hold(id, self)
            }
            let seconds = Int(services.configuration.resumeTimeout.components.seconds)
            let reply = wantsResumption ? XMLElement("enabled", namespace: sm, ["id": id, "resume": "true", "max": String(seconds)])
                                        : XMLElement("enabled", namespace: sm)
            write(reply.serialized())
            counting = true
        case "r":
            guard let handled = state.handledStanzas else { return }
            send(XMLElement("a", namespace: sm, ["h": String(handled)]))
        case "a":
            guard let acknowledged = element["h"].flatMap(UInt32.init) else {
                fail(.badFormat, "<a/> needs a count h")
                return
            }
            acknowledge(upTo: acknowledged)
        case "resume":
            send(XMLElement("failed", namespace: sm, [:], children: [XMLElement("unexpected-request", namespace: Namespace.stanzaErrors)]))
        default:
            fail(.unsupportedStanzaType, "<\(element.name)> in \(sm) is not supported")
        }
    }

    /// Client state indication (XEP-0352), a nonza: while the client says it is inactive,
    /// presence is held (the newest per sender) and chat states are dropped, and push
    /// notifications count the stream as away; when it is active again, the presence held is
    /// sent.
    private func indicateState(_ element: XMLElement) {
        switch element.name {
        case "inactive":
            state.inactivity.active = false
            services.clientStateChanged(token, false)
        case "active":
            services.clientStateChanged(token, true)
            for text in state.inactivity.activate() { send(raw: text, isStanza: true) }
        default:
            fail(.unsupportedStanzaType, "<\(element.name)> in \(Namespace.clientStateIndication) is not supported")
        }
    }

    /// Who this session is: user, bare and full JID.
    var me: (user: UserID, bare: JID, full: JID)? {
        guard let account = state.account, let resource = state.resource else { return nil }
        let bare = JID(local: XMPPDirectory.localPart(of: account.profile), domain: domain)
        return (account.profile.id, bare, bare.withResource(resource))
    }

    // MARK: iq

    private func handleIQ(_ iq: XMLElement) async {
        let type = iq["type"] ?? ""
        guard type != "result", type != "error" else {
            capsAnswered(iq)
            return
        }
        guard let me, iq["id"] != nil else {
            send(StanzaError.badRequest("an iq needs an id").reply(to: iq, from: domain))
            return
        }
        guard type == "get" || type == "set", iq.elements.count == 1, let query = iq.elements.first else {
            send(StanzaError.badRequest("an iq get or set has exactly one child").reply(to: iq, from: domain))
            return
        }
        var target: JID?
        if let to = iq["to"] {
            guard let jid = JID(to) else {
                send(StanzaError(type: "modify", condition: "jid-malformed", "not a JID").reply(to: iq, from: domain))
                return
            }
            target = jid
        }
        do {
            let answer = try await self.answer(type: type, query, target: target, me: me)
            send(XMLElement("iq", ["type": "result", "id": iq["id"], "from": iq["to"], "to": me.full.description],
                            children: answer.map { [$0] } ?? []))
        } catch {
            send(StanzaError.from(error).reply(to: iq, from: domain))
        }
    }

    /// The result's payload (nil for an empty result) from the handler table: a service's
    /// (upload, conference) by the addressee's domain, else the payload's handler. Throws a
    /// `StanzaError` or a core `ProtocolError`.
    private func answer(type: String, _ query: XMLElement, target: JID?, me: (user: UserID, bare: JID, full: JID)) async throws -> XMLElement? {
        guard let handler = handlers.service(for: target) ?? handlers.handler(for: query) else {
            throw StanzaError.serviceUnavailable("<\(query.name) xmlns='\(query.namespace)'> is not supported here")
        }
        return try await handler.answer(XMPPRequest(type: type, query: query, target: target, me: me, domain: domain), context: self)
    }
}
