/// Service discovery (XEP-0030) of the server and its users: the server's identity and the
/// features of the handler table; its items are the conference and upload services; a
/// user's account is a registered account, and the user's own offers the message archive.
struct DiscoHandler: XMPPHandler {
    var payloads: [XMPPPayload] { [XMPPPayload(Namespace.discoInfo, "query"), XMPPPayload(Namespace.discoItems, "query")] }
    var features: [String] { [Namespace.discoInfo, Namespace.discoItems] }

    func answer(_ request: XMPPRequest, context: isolated some XMPPHandlerContext) async throws -> XMLElement? {
        guard request.type == "get" else { throw request.unsupported }
        if request.query.namespace == Namespace.discoItems {
            guard request.toServer else { return XMLElement("query", namespace: Namespace.discoItems) }
            let domain = request.domain
            return XMLElement("query", namespace: Namespace.discoItems, [:], children: [
                XMLElement("item", namespace: Namespace.discoItems, ["jid": "conference." + domain, "name": "Groups and rooms"]),
                XMLElement("item", namespace: Namespace.discoItems, ["jid": "upload." + domain, "name": "File upload"]),
            ])
        }
        var query = XMLElement("query", namespace: Namespace.discoInfo)
        if request.toServer {
            query.append(XMLElement("identity", namespace: Namespace.discoInfo, ["category": "server", "type": "im", "name": "Parley"]))
            for feature in context.handlers.serverFeatures {
                query.append(XMLElement("feature", namespace: Namespace.discoInfo, ["var": feature]))
            }
        } else if let target = request.target {
            // Unknown users are `item-not-found`, as for any stanza to them.
            _ = try await context.services.directory.user(for: target)
            query.append(XMLElement("identity", namespace: Namespace.discoInfo, ["category": "account", "type": "registered"]))
            // Personal eventing (XEP-0163 §6.1): the nickname node (`PEPHandler`).
            query.append(XMLElement("identity", namespace: Namespace.discoInfo, ["category": "pubsub", "type": "pep"]))
            query.append(XMLElement("feature", namespace: Namespace.discoInfo, ["var": Namespace.discoInfo]))
            // The user's own archive is served at their bare JID (XEP-0313 §7), which is
            // where clients look for it.
            if target.bare == request.me.bare {
                query.append(XMLElement("feature", namespace: Namespace.discoInfo, ["var": Namespace.mam]))
                // Push (XEP-0357 §5) is discovered on the account too.
                query.append(XMLElement("feature", namespace: Namespace.discoInfo, ["var": Namespace.push]))
                // What the account's PEP service does (XEP-0163 §6.1): OMEMO clients look
                // for publish options here.
                for feature in PEPHandler().features {
                    query.append(XMLElement("feature", namespace: Namespace.discoInfo, ["var": feature]))
                }
            }
        }
        return query
    }
}
