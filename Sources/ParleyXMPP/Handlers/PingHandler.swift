/// XMPP ping (XEP-0199) to the server or the user's own account: an empty result.
struct PingHandler: XMPPHandler {
    var payloads: [XMPPPayload] { [XMPPPayload(Namespace.ping, "ping")] }
    var features: [String] { [Namespace.ping] }

    func answer(_ request: XMPPRequest, context: isolated some XMPPHandlerContext) async throws -> XMLElement? {
        guard request.type == "get", request.toServer || request.toSelf else { throw request.unsupported }
        return nil
    }
}
