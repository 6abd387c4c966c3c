import ParleyCore
import ParleyNet
import ParleyProtocol

// Files in messages: a message whose body is a link of this server's (as `UploadHandler`'s
// slots give, or named in an out-of-band `<x>`) is sent as that upload, so every client,
// native ones included, shows a picture or a file rather than a link.
extension XMPPServices {
    /// What to send for a message's body: an upload when the body is exactly a link to an
    /// upload of this server (or the message's out-of-band link is one and the body is empty
    /// or that same link), as clients send an uploaded file; text otherwise. The upload is
    /// tried as an image first (`XMPPHandlerContext.sendBody` falls back to a file, then to
    /// text); the link's `name` is the file's name.
    func sendParameters(for message: XMLElement, body: String, in conversation: ConversationID) -> SendParameters {
        let clientID = clientID(for: message)
        let text = body.trimmingWhitespace
        let link = message.child("x", namespace: Namespace.outOfBand)?.child("url", namespace: Namespace.outOfBand)?.text.trimmingWhitespace
        for candidate in [link, text].compactMap({ $0 }) where text.isEmpty || text == candidate {
            let path = mediaPath(candidate)
            if path.hasPrefix("/v1/media/"), path != candidate {
                let id = String(path.dropFirst("/v1/media/".count))
                guard !id.isEmpty, !id.contains("/") else { continue }
                return SendParameters(conversationId: conversation, clientId: clientID, kind: .image, mediaId: id,
                                      name: Self.linkName(candidate))
            }
        }
        return SendParameters(conversationId: conversation, clientId: clientID, kind: .text, text: body)
    }

    /// The `name` query value of a link, decoded.
    static func linkName(_ link: String) -> String? {
        guard let start = link.firstIndex(of: "?") else { return nil }
        let query = link[link.index(after: start)...].prefix { $0 != "#" }
        return PercentDecoding.parseQuery(query)?.first { $0.name == "name" }?.value
    }

    /// The stanza's id as the message's client id (so a retried stanza is stored once), or a
    /// random one when it has none or one too long for the core.
    func clientID(for stanza: XMLElement) -> String {
        stanza["id"].flatMap { conversations.clientIDLimit.allows($0) ? $0 : nil }
            ?? "xmpp-" + Base64.encode(CryptoRandom.bytes(12))
    }
}
