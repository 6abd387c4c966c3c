import ParleyCore
import ParleyNet
import ParleyProtocol

// Images in messages: a message whose body is a link of this server's (as `UploadHandler`'s
// slots give, or named in an out-of-band `<x>`) is sent as that image, so every client,
// native ones included, shows a picture.
extension XMPPServices {
    /// What to send for a message's body: an image when the body is exactly a link to an
    /// image of this server (or the message's out-of-band link is one and the body is empty
    /// or that same link), as clients send an uploaded file; text otherwise.
    func sendParameters(for message: XMLElement, body: String, in conversation: ConversationID) -> SendParameters {
        let clientID = clientID(for: message)
        let text = body.trimmingWhitespace
        let link = message.child("x", namespace: Namespace.outOfBand)?.child("url", namespace: Namespace.outOfBand)?.text.trimmingWhitespace
        for candidate in [link, text].compactMap({ $0 }) where text.isEmpty || text == candidate {
            let path = mediaPath(candidate)
            if path.hasPrefix("/v1/media/"), path != candidate {
                return SendParameters(conversationId: conversation, clientId: clientID, kind: .image, mediaId: String(path.dropFirst(10)))
            }
        }
        return SendParameters(conversationId: conversation, clientId: clientID, kind: .text, text: body)
    }

    /// The stanza's id as the message's client id (so a retried stanza is stored once), or a
    /// random one when it has none or one too long for the core.
    func clientID(for stanza: XMLElement) -> String {
        stanza["id"].flatMap { conversations.clientIDLimit.allows($0) ? $0 : nil }
            ?? "xmpp-" + Base64.encode(CryptoRandom.bytes(12))
    }
}
