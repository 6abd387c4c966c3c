import ParleyCore
import ParleyProtocol

/// HTTP file upload (XEP-0363), the service at `upload.<domain>`, over `UploadSlots`: a slot
/// request gets a single-use PUT link and the image's download link. Registered for the
/// service's domain: it answers every `iq` addressed to it.
struct UploadHandler: XMPPHandler {
    var payloads: [XMPPPayload] { [] }

    func answer(_ request: XMPPRequest, context: isolated some XMPPHandlerContext) async throws -> XMLElement? {
        let query = request.query
        let uploads = context.services.uploads
        switch (query.namespace, query.name, request.type) {
        case (Namespace.discoInfo, "query", "get"):
            // Identity `store/file`, the feature, and the largest file.
            return XMLElement("query", namespace: Namespace.discoInfo, [:], children: [
                XMLElement("identity", namespace: Namespace.discoInfo, ["category": "store", "type": "file", "name": "File upload"]),
                XMLElement("feature", namespace: Namespace.discoInfo, ["var": Namespace.httpUpload]),
                XMLElement("feature", namespace: Namespace.discoInfo, ["var": Namespace.discoInfo]),
                DataForm(type: "result", fields: [("FORM_TYPE", [Namespace.httpUpload]),
                                                  ("max-file-size", [String(uploads.maxBytes)])])
                    .element(kinds: ["FORM_TYPE": "hidden"]),
            ])
        case (Namespace.discoItems, "query", "get"):
            return XMLElement("query", namespace: Namespace.discoItems)
        case (Namespace.httpUpload, "request", "get"):
            return try slot(for: query, me: request.me.user, services: context.services)
        default:
            throw StanzaError.serviceUnavailable("<\(query.name) xmlns='\(query.namespace)'> is not supported by the upload service")
        }
    }

    /// A slot for `<request filename size content-type>`: the PUT link carries the slot's
    /// token; the GET link is where the image will be.
    private func slot(for request: XMLElement, me: UserID, services: XMPPServices) throws -> XMLElement {
        guard let size = request["size"].flatMap({ Int($0) }) else { throw StanzaError.badRequest("a slot request gives the size in bytes") }
        let uploads = services.uploads
        let slot: UploadSlots.Slot
        switch Result(catching: { () throws(ProtocolError) in try uploads.grant(to: me, size: size, contentType: request["content-type"]) }) {
        case .success(let granted):
            slot = granted
        case .failure(let error) where error.code == .payloadTooLarge:
            throw StanzaError(type: "modify", condition: "not-acceptable", error.message, application: XMLElement(
                "file-too-large", namespace: Namespace.httpUpload, [:],
                children: [XMLElement("max-file-size", namespace: Namespace.httpUpload, [:], text: String(uploads.maxBytes))]))
        case .failure(let error):
            throw error
        }
        return XMLElement("slot", namespace: Namespace.httpUpload, [:], children: [
            XMLElement("put", namespace: Namespace.httpUpload, ["url": services.absoluteURL("/v1/uploads/\(slot.token)")]),
            XMLElement("get", namespace: Namespace.httpUpload, ["url": services.mediaLink("/v1/media/\(slot.mediaID)", name: Self.fileName(request))]),
        ])
    }

    /// The name the client gave the file, made safe, for the download link: clients show
    /// the link's name, and a message carrying the link keeps it as the file's name.
    static func fileName(_ request: XMLElement) -> String? {
        guard let name = request["filename"], name.utf8.count <= FileName.maxInputBytes else { return nil }
        let safe = FileName.sanitized(name)
        return safe.isEmpty ? nil : safe
    }
}
