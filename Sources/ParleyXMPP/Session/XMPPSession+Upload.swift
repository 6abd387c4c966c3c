import ParleyCore
import ParleyProtocol

// Images in messages: a message whose body is a link of this server's (as `UploadHandler`'s
// slots give, or named in an out-of-band `<x>`) is sent as that image, so every client,
// native ones included, shows a picture.
extension XMPPSession {
    /// What to send for a message's body: an image when the body is exactly a link to an
    /// image of this server (or the message's out-of-band link is one and the body is empty
    /// or that same link), as clients send an uploaded file; text otherwise.
    func sendParameters(for message: XMLElement, body: String, in conversation: ConversationID) -> SendParameters {
        let clientID = clientID(for: message)
        let text = body.trimmingWhitespace
        let link = message.child("x", namespace: Namespace.outOfBand)?.child("url", namespace: Namespace.outOfBand)?.text.trimmingWhitespace
        for candidate in [link, text].compactMap({ $0 }) where text.isEmpty || text == candidate {
            let path = services.mediaPath(candidate)
            if path.hasPrefix("/v1/media/"), path != candidate {
                return SendParameters(conversationId: conversation, clientId: clientID, kind: .image, mediaId: String(path.dropFirst(10)))
            }
        }
        return SendParameters(conversationId: conversation, clientId: clientID, kind: .text, text: body)
    }

    /// Sends a message's body, as an image if it links to one (`sendParameters`). A link to
    /// an image that is not the sender's own upload is only text: Parley's image messages
    /// carry the sender's uploads.
    func sendBody(of message: XMLElement, _ body: String, in conversation: ConversationID,
                  me: UserID) async throws(ProtocolError) -> Message {
        let parameters = sendParameters(for: message, body: body, in: conversation)
        do throws(ProtocolError) {
            return try await services.conversations.send(from: me, parameters, connection: token).message
        } catch {
            guard parameters.kind == .image && error.field == "mediaId" else { throw error }
        }
        return try await services.conversations.send(
            from: me, SendParameters(conversationId: conversation, clientId: parameters.clientId, kind: .text, text: body),
            connection: token).message
    }
}
