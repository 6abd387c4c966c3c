import ParleyCore
import ParleyProtocol

/// Mentions between Jabber occupants and Parley groups. From a Jabber client, XEP-0372
/// references of type `mention` (to an occupant's room JID or a user's JID) and `@nick`
/// words in the body become the message's `mentions`, so the mentions count and
/// mentions-only mutes work for them; the other way, a group message's mentions come to a
/// Jabber occupant as references to the mentioned occupants.
enum MUCMentions {
    /// Names one message may mention at most (more are ignored; the core has its own bound,
    /// `--max-mentions`).
    static let maxNames = 20

    /// The users `message` names, the sender left out; names that are no user are skipped.
    static func mentioned(in message: XMLElement, body: String, me: XMPPIdentity, services: XMPPServices) async -> [UserID] {
        var names: [String] = []
        for reference in message.elements where reference.name == "reference" && reference.namespace == Namespace.references
            && reference["type"] == "mention" {
            guard let uri = reference["uri"], uri.hasPrefix("xmpp:"), let jid = JID(String(uri.dropFirst(5))) else { continue }
            if jid.domain == services.directory.domain, let local = jid.local {
                names.append(local)
            } else if let nick = jid.resource {
                names.append(nick)
            }
        }
        names += atNames(in: body)
        var users: [UserID] = []
        for name in names.prefix(maxNames) {
            guard let user = try? await services.directory.user(for: JID(local: name.lowercased(), domain: services.directory.domain)),
                  user != me.user, !users.contains(user) else { continue }
            users.append(user)
        }
        return users
    }

    /// The words of `body` that start with "@", without it and without trailing punctuation
    /// (a name is letters, digits, `_`, `.`, `-` and `~`, as usernames and `~<id>` are).
    static func atNames(in body: String) -> [String] {
        body.split(whereSeparator: \.isWhitespace).compactMap { word -> String? in
            guard word.hasPrefix("@") else { return nil }
            var name = Substring(word.dropFirst())
            while let last = name.last, !(last.isLetter || last.isNumber || "_-~".contains(last)) { name = name.dropLast() }
            return name.isEmpty ? nil : String(name)
        }
    }

    /// XEP-0372 references for a group message's mentions, each to the mentioned occupant's
    /// room JID, with `begin` and `end` (character positions, end exclusive) where the text
    /// names them as "@nick".
    static func references(for message: Message, room: JID, nick: (UserID) -> String) -> [XMLElement] {
        guard let mentions = message.mentions, !mentions.isEmpty else { return [] }
        let text = Array((message.text ?? "").unicodeScalars)
        return mentions.map { user in
            let name = nick(user)
            let needle = Array(("@" + name).unicodeScalars)
            var begin: Int?
            if text.count >= needle.count {
                begin = (0...(text.count - needle.count)).first { Array(text[$0..<($0 + needle.count)]) == needle }
            }
            return XMLElement("reference", namespace: Namespace.references, [
                "type": "mention", "uri": "xmpp:\(room.bare)/\(name)",
                "begin": begin.map { String($0) }, "end": begin.map { String($0 + needle.count) },
            ])
        }
    }
}
