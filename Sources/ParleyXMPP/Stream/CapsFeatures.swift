import ParleySync

/// Entity capabilities (XEP-0115) of clients: the features a client's caps (`node#ver`)
/// stand for, as the client answered the server's disco#info of them. PEP events (XEP-0163
/// §4.3) go only to streams whose caps ask for them (`<node>+notify`). The same caps are
/// shared by every client of one version, so each is asked for once; the memory starts over
/// past `capacity` entries.
final class CapsFeatures: Sendable {
    private let known = PThreadMutex<[String: Set<String>]>([:])
    let capacity = 10_000

    func features(of key: String) -> Set<String>? {
        known.withLock { $0[key] }
    }

    func remember(_ features: Set<String>, for key: String) {
        known.withLock { table in
            if table.count >= capacity { table.removeAll() }
            table[key] = features
        }
    }

    /// The caps key (`node#ver`) a presence announces, if it carries caps.
    static func key(of presence: XMLElement) -> String? {
        guard let caps = presence.child("c", namespace: Namespace.caps), let node = caps["node"], let ver = caps["ver"] else { return nil }
        return node + "#" + ver
    }

    /// The PEP node of a forwarded PEP event (a headline message whose payload is a
    /// `pubsub#event`), nil for any other stanza.
    static func eventNode(stanza: String?, type: String?, children: String) -> String? {
        let start = "<event xmlns='" + Namespace.pubsubEvent + "'><items node='"
        guard stanza == nil, type == "headline", children.hasPrefix(start) else { return nil }
        let rest = children.dropFirst(start.count)
        guard let end = rest.firstIndex(of: "'") else { return nil }
        return String(rest[..<end])
    }
}
