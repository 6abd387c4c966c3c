import ParleyCore
import ParleyProtocol

// HTTP file upload (XEP-0363) on `upload.<domain>`, over `UploadSlots`: a slot request gets
// a single-use PUT link and the image's download link; and a message whose body is such a
// link of this server (or names one in an out-of-band `<x>`) is sent as that image, so
// every client, native ones included, shows a picture.
extension XMPPSession {
    /// The upload service's address.
    var uploadDomain: String { "upload." + domain }

    /// The service's disco#info: identity `store/file`, the feature, and the largest file.
    func uploadServiceInfo() -> XMLElement {
        XMLElement("query", namespace: Namespace.discoInfo, [:], children: [
            XMLElement("identity", namespace: Namespace.discoInfo, ["category": "store", "type": "file", "name": "Image upload"]),
            XMLElement("feature", namespace: Namespace.discoInfo, ["var": Namespace.httpUpload]),
            XMLElement("feature", namespace: Namespace.discoInfo, ["var": Namespace.discoInfo]),
            DataForm(type: "result", fields: [("FORM_TYPE", [Namespace.httpUpload]),
                                              ("max-file-size", [String(services.uploads.maxBytes)])])
                .element(kinds: ["FORM_TYPE": "hidden"]),
        ])
    }

    /// `iq` to the upload service.
    func uploadQuery(type: String, _ query: XMLElement, me: UserID) async throws -> XMLElement? {
        switch (query.namespace, query.name, type) {
        case (Namespace.discoInfo, "query", "get"):
            return uploadServiceInfo()
        case (Namespace.discoItems, "query", "get"):
            return XMLElement("query", namespace: Namespace.discoItems)
        case (Namespace.httpUpload, "request", "get"):
            return try slot(for: query, me: me)
        default:
            throw StanzaError.serviceUnavailable("<\(query.name) xmlns='\(query.namespace)'> is not supported by the upload service")
        }
    }

    /// A slot for `<request filename size content-type>`: the PUT link carries the slot's
    /// token; the GET link is where the image will be.
    private func slot(for request: XMLElement, me: UserID) throws -> XMLElement {
        guard let size = request["size"].flatMap({ Int($0) }) else { throw StanzaError.badRequest("a slot request gives the size in bytes") }
        let slot: UploadSlots.Slot
        switch Result(catching: { () throws(ProtocolError) in try services.uploads.grant(to: me, size: size, contentType: request["content-type"]) }) {
        case .success(let granted):
            slot = granted
        case .failure(let error) where error.code == .payloadTooLarge:
            throw StanzaError(type: "modify", condition: "not-acceptable", error.message, application: XMLElement(
                "file-too-large", namespace: Namespace.httpUpload, [:],
                children: [XMLElement("max-file-size", namespace: Namespace.httpUpload, [:], text: String(services.uploads.maxBytes))]))
        case .failure(let error):
            throw error
        }
        return XMLElement("slot", namespace: Namespace.httpUpload, [:], children: [
            XMLElement("put", namespace: Namespace.httpUpload, ["url": services.absoluteURL("/v1/uploads/\(slot.token)")]),
            XMLElement("get", namespace: Namespace.httpUpload, ["url": services.absoluteURL("/v1/media/\(slot.mediaID)")]),
        ])
    }

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
            return try await services.conversations.send(from: me, parameters, connection: token)
        } catch {
            guard parameters.kind == .image && error.field == "mediaId" else { throw error }
        }
        return try await services.conversations.send(
            from: me, SendParameters(conversationId: conversation, clientId: parameters.clientId, kind: .text, text: body),
            connection: token)
    }
}
