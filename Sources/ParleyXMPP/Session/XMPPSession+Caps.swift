import ParleyCore
import ParleyNet

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
    }

    /// Whether this stream's client asked for events of `node`.
    func wantsEvents(of node: String) -> Bool {
        guard let key = state.capsKey, let features = services.caps.features(of: key) else { return false }
        return features.contains(node + "+notify")
    }
}
