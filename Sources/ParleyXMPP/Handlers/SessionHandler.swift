/// Session establishment (RFC 3921 §3), which old clients still ask for after binding:
/// nothing to do, an empty result.
struct SessionHandler: XMPPHandler {
    var payloads: [XMPPPayload] { [XMPPPayload(Namespace.session, "session")] }

    func answer(_ request: XMPPRequest, context: isolated some XMPPHandlerContext) async throws -> XMLElement? {
        guard request.type == "set" else { throw request.unsupported }
        return nil
    }
}
