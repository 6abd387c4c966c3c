import ParleyCore
import ParleyProtocol

/// Blocking command (XEP-0191) = Parley's block list: the list, block and unblock (all when
/// no JID is named), each change pushed to all of the user's resources.
struct BlockingHandler: XMPPHandler {
    var payloads: [XMPPPayload] { [XMPPPayload(Namespace.blocking)] }
    var features: [String] { [Namespace.blocking] }

    func answer(_ request: XMPPRequest, context: isolated some XMPPHandlerContext) async throws -> XMLElement? {
        guard request.toSelf else { throw request.unsupported }
        let services = context.services
        let me = request.me.user
        let query = request.query
        switch (query.name, request.type) {
        case ("blocklist", "get"):
            var list = XMLElement("blocklist", namespace: Namespace.blocking)
            for profile in try await services.social.allBlocked(by: me) {
                list.append(XMLElement("item", namespace: Namespace.blocking, ["jid": services.directory.jid(of: profile).description]))
            }
            return list
        case ("block", "set"), ("unblock", "set"):
            let jids = query.elements.filter { $0.name == "item" }.compactMap { $0["jid"].flatMap(JID.init) }
            if query.name == "block" && jids.isEmpty { throw ProtocolError(.missingField, "name at least one JID to block") }
            var targets: [UserID] = []
            for jid in jids { targets.append(try await services.directory.user(for: jid)) }
            if query.name == "unblock" && jids.isEmpty {
                targets = try await services.social.allBlocked(by: me).map(\.id)
            }
            for target in targets {
                if query.name == "block" {
                    try await services.social.block(target, by: me)
                } else {
                    try await services.social.unblock(target, by: me)
                }
            }
            // Every resource of the user hears of it (§3.3, §3.4): the items as named (an
            // unblock of everyone names none).
            services.push(XMLElement(query.name, namespace: Namespace.blocking, [:], children: jids.map {
                XMLElement("item", namespace: Namespace.blocking, ["jid": $0.bare.description])
            }), to: request.me)
            return nil
        default:
            throw ProtocolError(.badRequest, "not a blocking command")
        }
    }
}
