/// Message carbons (XEP-0280): the client turns copies of what the user sends and receives
/// elsewhere on or off for its stream.
struct CarbonsHandler: XMPPHandler {
    var payloads: [XMPPPayload] { [XMPPPayload(Namespace.carbons, "enable"), XMPPPayload(Namespace.carbons, "disable")] }
    var features: [String] { [Namespace.carbons] }

    func answer(_ request: XMPPRequest, context: isolated some XMPPHandlerContext) async throws -> XMLElement? {
        guard request.type == "set" else { throw request.unsupported }
        context.setCarbons(request.query.name == "enable")
        return nil
    }
}
