import ParleyCore
import ParleyProtocol

// How Parley's messages and links look in XMPP, shared by the session and the handlers:
// functions of the configuration alone, no stream state.
extension XMPPServices {
    /// A server path (`/v1/media/<id>`) as a link a Jabber client can open; other URLs as
    /// they are.
    func absoluteURL(_ url: String) -> String {
        url.hasPrefix("/") ? configuration.publicURL + url : url
    }

    /// A link to this server's media as the path form profiles and groups keep (the
    /// reverse of `absoluteURL`); other links as they are.
    func mediaPath(_ url: String) -> String {
        let base = configuration.publicURL
        return !base.isEmpty && url.hasPrefix(base + "/v1/media/") ? String(url.dropFirst(base.count)) : url
    }

    /// The message as a bare chat stanza (body, and an image's or a voice note's URL), or nil for a system notice.
    func plainStanza(_ message: Message, from: JID, to: JID) -> XMLElement? {
        let body: String
        var extra: [XMLElement] = []
        switch message.kind {
        case .text:
            guard let text = message.text else { return nil }
            body = text
        case .image:
            guard let image = message.image else { return nil }
            body = absoluteURL(image.url)
            extra.append(XMLElement("x", namespace: Namespace.outOfBand, [:], children: [XMLElement("url", namespace: Namespace.outOfBand, [:], text: body)]))
        case .voice:
            guard let voice = message.voice else { return nil }
            (body, extra) = voiceParts(voice)
        case .system:
            return nil
        }
        return XMLElement("message", ["type": "chat", "id": message.clientId ?? message.id, "from": from.description, "to": to.description],
                          children: [XMLElement("body", [:], text: body)] + extra)
    }

    /// A message's id in the user's archive (XEP-0313, XEP-0359): its server id, unique
    /// across the server, so one id serves the user's whole archive and every room's.
    static func archiveID(_ message: Message) -> String {
        message.id
    }
}
