import Foundation
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

    /// A link to an upload (`/v1/media/<id>`) for a Jabber client: absolute, and signed
    /// with `configuration.mediaURLs` (docs/xmpp.md, "Media links"), since the client
    /// fetches it without a Parley sign-in; `name` asks for that download name.
    func mediaLink(_ path: String, name: String? = nil) -> String {
        var link = path
        if let signer = configuration.mediaURLs, path.hasPrefix("/v1/media/"), !path.contains("?") {
            link = signer.url(for: String(path.dropFirst("/v1/media/".count)), now: Int64(Date().timeIntervalSince1970 * 1000)).url
        }
        if let name { link += (link.contains("?") ? "&" : "?") + "name=" + Self.queryEncoded(name) }
        return absoluteURL(link)
    }

    /// `text` percent-encoded for a query value: everything but RFC 3986's unreserved bytes.
    static func queryEncoded(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.append(Character(Unicode.Scalar(byte)))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                out += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return out
    }

    /// A link to this server's media as the path form profiles and groups keep (the
    /// reverse of `absoluteURL`); other links as they are.
    func mediaPath(_ url: String) -> String {
        let base = configuration.publicURL
        // Every message's text is asked (`sendParameters`): compared in place, not by making
        // the prefix's string each time.
        guard !base.isEmpty, url.utf8.starts(with: base.utf8),
              url.utf8.dropFirst(base.utf8.count).starts(with: "/v1/media/".utf8) else { return url }
        // A signed link's query (and a download name) is not part of the upload's path.
        let path = url[url.utf8.index(url.startIndex, offsetBy: base.utf8.count)...]
        return String(path.prefix { $0 != "?" && $0 != "#" })
    }

    /// The message as a bare chat stanza (body, and an image's, a voice note's or a file's URL), or nil for a system notice.
    func plainStanza(_ message: Message, from: JID, to: JID) -> XMLElement? {
        let body: String
        var extra: [XMLElement] = []
        switch message.kind {
        case .text:
            guard let text = message.text else { return nil }
            body = text
        case .image:
            guard let image = message.image else { return nil }
            body = mediaLink(image.url)
            extra.append(Self.outOfBand(url: body, description: nil))
        case .voice:
            guard let voice = message.voice else { return nil }
            (body, extra) = voiceParts(voice)
        case .file:
            // The body is the link, so a client without out-of-band support still shows
            // something to click, and the name rides along.
            guard let file = message.file else { return nil }
            body = mediaLink(file.url, name: file.name)
            extra.append(Self.outOfBand(url: body, description: message.text ?? file.name))
        case .system:
            return nil
        }
        return XMLElement("message", ["type": "chat", "id": message.clientId ?? message.id, "from": from.description, "to": to.description],
                          children: [XMLElement("body", [:], text: body)] + extra)
    }

    /// An out-of-band link (XEP-0066), which Jabber clients show as the attachment itself
    /// (an image inline, a recording as a player, a file to download), with its description.
    static func outOfBand(url: String, description: String?) -> XMLElement {
        XMLElement("x", namespace: Namespace.outOfBand, [:], children: [XMLElement("url", namespace: Namespace.outOfBand, [:], text: url)]
            + (description.map { [XMLElement("desc", namespace: Namespace.outOfBand, [:], text: $0)] } ?? []))
    }

    /// A message's id in the user's archive (XEP-0313, XEP-0359): its server id, unique
    /// across the server, so one id serves the user's whole archive and every room's.
    static func archiveID(_ message: Message) -> String {
        message.id
    }
}
