import ParleyCore
import ParleyNet
import ParleyProtocol

// Entity capabilities (XEP-0115) for PEP notifications (XEP-0163 §4.3): a client says which
// nodes it wants events of by `<node>+notify` features, which its caps stand for. The
// server asks the client what unknown caps mean (disco#info of `node#ver`), once per caps.
extension XMPPSession {
    /// The client's available presence: its caps, asked about if not known yet.
    func noteCaps(_ presence: XMLElement, me: XMPPIdentity) {
        guard let key = CapsFeatures.key(of: presence) else {
            state.capsKey = nil
            return
        }
        state.capsKey = key
        guard services.caps.features(of: key) == nil, !state.capsQueries.values.contains(key) else { return }
        let id = "caps-" + Base64URL.encode(CryptoRandom.bytes(6))
        state.capsQueries[id] = key
        send(XMLElement("iq", ["type": "get", "id": id, "from": domain, "to": me.full.description], children: [
            XMLElement("query", namespace: Namespace.discoInfo, ["node": key]),
        ]))
    }

    /// An iq result or error from the client: the answer to a caps query, if it is one.
    func capsAnswered(_ iq: XMLElement) {
        guard let id = iq["id"], let key = state.capsQueries.removeValue(forKey: id), iq["type"] == "result",
              let query = iq.child("query", namespace: Namespace.discoInfo) else { return }
        services.caps.remember(Set(query.elements.filter { $0.name == "feature" }.compactMap { $0["var"] }), for: key)
        if state.lastPublishedWaiting, state.capsKey == key, let me {
            Task(executorPreference: loop) { await self.sendLastPublished(me: me, of: nil) }
        }
    }

    /// The last published items (XEP-0163 §6.1.2, "last published item on presence") of the
    /// nodes this client asks events of, of `owners` (nil: the user and all friends), sent as
    /// events from each owner's bare JID. Until the client's caps are known, once they are.
    func sendLastPublished(me: XMPPIdentity, of owners: [UserID]?) async {
        guard let key = state.capsKey, let features = services.caps.features(of: key) else {
            // The whole set waits for the caps' answer; a new friend's items come with it then.
            if owners == nil { state.lastPublishedWaiting = state.capsKey != nil }
            return
        }
        if owners == nil { state.lastPublishedWaiting = false }
        let suffix = "+notify"
        let nodes = features.filter { $0.hasSuffix(suffix) }.map { String($0.dropLast(suffix.count)) }
        guard !nodes.isEmpty else { return }
        var users = owners ?? []
        if owners == nil {
            users = ((try? await services.social.allFriends(of: me.user)) ?? []).map { friend in
                learn(friend)
                return friend.user.id
            } + [me.user]
        }
        let items = (try? await services.pep.lastItems(of: users, nodes: nodes, for: me.user)) ?? []
        for item in items {
            guard let element = PEPHandler.item(item, namespace: Namespace.pubsubEvent, services: services) else { continue }
            let from = item.owner == me.user ? me.bare : address(of: item.owner)
            send(XMLElement("message", ["type": "headline", "from": from.description, "to": me.full.description], children: [
                XMLElement("event", namespace: Namespace.pubsubEvent, [:], children: [
                    XMLElement("items", namespace: Namespace.pubsubEvent, ["node": item.node], children: [element]),
                ]),
            ]))
        }
    }

    /// Whether this stream's client asked for events of `node`.
    func wantsEvents(of node: String) -> Bool {
        guard let key = state.capsKey, let features = services.caps.features(of: key) else { return false }
        return features.contains(node + "+notify")
    }
}
