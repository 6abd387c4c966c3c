import Foundation
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
    /// `pubsub#event` of `<items>`, `<delete>` or `<purge>`), nil for any other stanza.
    static func eventNode(stanza: String?, type: String?, children: String) -> String? {
        let start = "<event xmlns='" + Namespace.pubsubEvent + "'><"
        guard stanza == nil, type == "headline", children.hasPrefix(start) else { return nil }
        var rest = children.dropFirst(start.count)
        guard let kind = ["items", "delete", "purge"].first(where: { rest.hasPrefix($0 + " node='") }) else { return nil }
        rest = rest.dropFirst(kind.count + " node='".count)
        guard let end = rest.firstIndex(of: "'") else { return nil }
        return unescaped(String(rest[..<end]))
    }

    /// An attribute value as the serializer escaped it, read back (node names seldom hold
    /// any of the five).
    private static func unescaped(_ value: String) -> String {
        guard value.contains("&") else { return value }
        return value.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
    }
}
