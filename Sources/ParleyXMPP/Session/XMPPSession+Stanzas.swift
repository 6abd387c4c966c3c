import ParleyCore
import ParleyNet
import ParleyProtocol

// Stanzas of a bound stream: the entry point, and the stream's own iq queries.
extension XMPPSession {
    /// Handles one stanza in the order it came; called by the loop one at a time.
    func handle(_ stanza: XMLElement) async {
        let phase = state.withLock { $0.phase }
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
            guard stanza.namespace == Namespace.client else {
                fail(.unsupportedStanzaType, "<\(stanza.name)> in \(stanza.namespace) is not supported")
                return
            }
            state.withLock { state in state.handledStanzas = state.handledStanzas.map { $0 &+ 1 } }
            switch stanza.name {
            case "iq": await handleIQ(stanza)
            case "message": await handleMessage(stanza)
            case "presence": await handlePresence(stanza)
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
            let enabled = state.withLock { state -> Bool in
                guard state.handledStanzas == nil else { return false }
                state.handledStanzas = 0
                if wantsResumption { state.resumptionID = id }
                return true
            }
            guard enabled else {
                send(XMLElement("failed", namespace: sm, [:], children: [XMLElement("unexpected-request", namespace: Namespace.stanzaErrors)]))
                return
            }
            if wantsResumption { services.resumable.hold(id, self) }
            let seconds = Int(services.configuration.resumeTimeout.components.seconds)
            let reply = wantsResumption ? XMLElement("enabled", namespace: sm, ["id": id, "resume": "true", "max": String(seconds)])
                                        : XMLElement("enabled", namespace: sm)
            loop.execute {
                self.write(reply.serialized())
                self.counting = true
            }
        case "r":
            guard let handled = state.withLock({ $0.handledStanzas }) else { return }
            send(XMLElement("a", namespace: sm, ["h": String(handled)]))
        case "a":
            guard let acknowledged = element["h"].flatMap(UInt32.init) else {
                fail(.badFormat, "<a/> needs a count h")
                return
            }
            loop.execute { self.acknowledge(upTo: acknowledged) }
        case "resume":
            send(XMLElement("failed", namespace: sm, [:], children: [XMLElement("unexpected-request", namespace: Namespace.stanzaErrors)]))
        default:
            fail(.unsupportedStanzaType, "<\(element.name)> in \(sm) is not supported")
        }
    }

    /// Who this session is: user, bare and full JID.
    var me: (user: UserID, bare: JID, full: JID)? {
        state.withLock { state in
            guard let account = state.account, let resource = state.resource else { return nil }
            let bare = JID(local: XMPPDirectory.localPart(of: account.profile), domain: domain)
            return (account.profile.id, bare, JID(local: bare.local, domain: domain, resource: resource))
        }
    }

    /// The address of a user as this session knows it (friends by username, others by id).
    func address(of user: UserID) -> JID {
        let local = state.withLock { $0.localParts[user] } ?? "~\(user.rawValue)"
        return JID(local: local, domain: domain)
    }

    // MARK: iq

    private func handleIQ(_ iq: XMLElement) async {
        let type = iq["type"] ?? ""
        guard type != "result", type != "error" else { return }
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

    /// The result's payload (nil for an empty result). Throws a `StanzaError` or a core
    /// `ProtocolError`.
    private func answer(type: String, _ query: XMLElement, target: JID?, me: (user: UserID, bare: JID, full: JID)) async throws -> XMLElement? {
        let toServer = target == nil || target == JID(local: nil, domain: domain)
        let toSelf = target == nil || target?.bare == me.bare
        if let target, target.domain == conferenceDomain {
            return try await conferenceQuery(type: type, query, target: target, me: me)
        }
        if let target, target.domain == uploadDomain, target.local == nil {
            return try await uploadQuery(type: type, query, me: me.user)
        }
        do {
            switch (query.namespace, query.name, type) {
            case (Namespace.ping, "ping", "get") where toServer || toSelf:
                return nil
            case (Namespace.session, "session", "set"):
                return nil
            case (Namespace.roster, "query", _) where toSelf:
                return try await roster(type: type, query, me: me.user)
            case (Namespace.discoInfo, "query", "get"):
                return try await discoInfo(target: target, toServer: toServer)
            case (Namespace.discoItems, "query", "get") where toServer:
                return XMLElement("query", namespace: Namespace.discoItems, [:], children: [
                    XMLElement("item", namespace: Namespace.discoItems, ["jid": conferenceDomain, "name": "Groups and rooms"]),
                    XMLElement("item", namespace: Namespace.discoItems, ["jid": uploadDomain, "name": "Image upload"]),
                ])
            case (Namespace.discoItems, "query", "get"):
                return XMLElement("query", namespace: Namespace.discoItems)
            case (Namespace.vcard, "vCard", "get"):
                let user = toSelf ? me.user : try await services.directory.user(for: target!)
                return vcard(try await services.accounts.profile(id: user))
            case (Namespace.vcard, "vCard", "set") where toSelf:
                try await setVCard(query, me: me.user)
                return nil
            case (Namespace.blocking, _, _) where toSelf:
                return try await blocking(type: type, query, me: me.user)
            case (Namespace.carbons, "enable", "set"), (Namespace.carbons, "disable", "set"):
                state.withLock { $0.carbons = query.name == "enable" }
                return nil
            case (Namespace.mam, "query", "set") where toSelf:
                return try await archive(query, me: me)
            default:
                throw StanzaError.serviceUnavailable("<\(query.name) xmlns='\(query.namespace)'> is not supported here")
            }
        }
    }

    // MARK: Service discovery (XEP-0030)

    static let serverFeatures = [Namespace.discoInfo, Namespace.discoItems, Namespace.ping, Namespace.roster, Namespace.vcard,
                                 Namespace.blocking, Namespace.receipts, Namespace.chatStates, Namespace.carbons, Namespace.mam]

    private func discoInfo(target: JID?, toServer: Bool) async throws(ProtocolError) -> XMLElement {
        var query = XMLElement("query", namespace: Namespace.discoInfo)
        if toServer {
            query.append(XMLElement("identity", namespace: Namespace.discoInfo, ["category": "server", "type": "im", "name": "Parley"]))
            for feature in Self.serverFeatures {
                query.append(XMLElement("feature", namespace: Namespace.discoInfo, ["var": feature]))
            }
        } else if let target {
            _ = try await services.directory.user(for: target)
            query.append(XMLElement("identity", namespace: Namespace.discoInfo, ["category": "account", "type": "registered"]))
            query.append(XMLElement("feature", namespace: Namespace.discoInfo, ["var": Namespace.discoInfo]))
        }
        return query
    }

    // MARK: vCard (XEP-0054) = profile

    private func vcard(_ profile: UserProfile) -> XMLElement {
        var card = XMLElement("vCard", namespace: Namespace.vcard)
        if let nickname = profile.nickname {
            card.append(XMLElement("NICKNAME", namespace: Namespace.vcard, [:], text: nickname))
            card.append(XMLElement("FN", namespace: Namespace.vcard, [:], text: nickname))
        }
        if let avatar = profile.avatar {
            card.append(XMLElement("PHOTO", namespace: Namespace.vcard, [:], children: [
                XMLElement("EXTVAL", namespace: Namespace.vcard, [:], text: absoluteURL(avatar)),
            ]))
        }
        if let signature = profile.signature {
            card.append(XMLElement("DESC", namespace: Namespace.vcard, [:], text: signature))
        }
        return card
    }

    private func setVCard(_ card: XMLElement, me: UserID) async throws(ProtocolError) {
        var update = ProfileUpdate()
        let nickname = (card.child("NICKNAME") ?? card.child("FN"))?.text.trimmingWhitespace
        update.nickname = nickname.map { $0.isEmpty ? .clear : .set($0) } ?? .clear
        if let url = card.child("PHOTO")?.child("EXTVAL")?.text.trimmingWhitespace, !url.isEmpty {
            update.avatar = .set(mediaPath(url))
        }
        let account = try await services.accounts.updateProfile(of: me, with: update)
        state.withLock { $0.account = account }
        // The user's other devices hear of it, as they do of a native `me.update`.
        services.delivery.deliver(.meUpdated(account), to: [me], excluding: token)
    }

    /// A link to this server's media as the path form profiles and groups keep (the
    /// reverse of `absoluteURL`); other links as they are.
    func mediaPath(_ url: String) -> String {
        let base = services.configuration.publicURL
        return !base.isEmpty && url.hasPrefix(base + "/v1/media/") ? String(url.dropFirst(base.count)) : url
    }

    // MARK: Blocking (XEP-0191)

    private func blocking(type: String, _ query: XMLElement, me: UserID) async throws(ProtocolError) -> XMLElement? {
        switch (query.name, type) {
        case ("blocklist", "get"):
            var list = XMLElement("blocklist", namespace: Namespace.blocking)
            for profile in try await services.social.allBlocked(by: me) {
                list.append(XMLElement("item", namespace: Namespace.blocking, ["jid": services.directory.jid(of: profile).description]))
            }
            return list
        case ("block", "set"), ("unblock", "set"):
            let jids = query.elements.filter { $0.name == "item" }.compactMap { $0["jid"].flatMap(JID.init) }
            if query.name == "block" && jids.isEmpty { throw ProtocolError(.missingField, "name at least one JID to block") }
            var targets: [UserID] = []
            for jid in jids { targets.append(try await services.directory.user(for: jid)) }
            if query.name == "unblock" && jids.isEmpty {
                targets = try await services.social.allBlocked(by: me).map(\.id)
            }
            for target in targets {
                if query.name == "block" {
                    try await services.social.block(target, by: me)
                } else {
                    try await services.social.unblock(target, by: me)
                }
            }
            return nil
        default:
            throw ProtocolError(.badRequest, "not a blocking command")
        }
    }
}
