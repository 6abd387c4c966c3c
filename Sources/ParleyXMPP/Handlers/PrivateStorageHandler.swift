import ParleyCore
import ParleyProtocol

/// Private XML storage (XEP-0049): a client keeps any XML of its own namespace on the user's
/// account, one element per name and namespace, and reads it back from any resource; this is
/// where Jabber clients keep their room bookmarks (XEP-0048). Kept per user in the core's
/// `PrivateStorageService`, within `XMPPConfiguration.maxPrivateItems`.
struct PrivateStorageHandler: XMPPHandler {
    var payloads: [XMPPPayload] { [XMPPPayload(Namespace.privateStorage, "query")] }

    func answer(_ request: XMPPRequest, context: isolated some XMPPHandlerContext) async throws -> XMLElement? {
        guard request.toSelf else { throw StanzaError(type: "cancel", condition: "forbidden", "private storage is one's own") }
        let elements = request.query.elements
        guard elements.count == 1, let element = elements.first else {
            throw StanzaError(type: "modify", condition: "not-acceptable", "name one element of one namespace")
        }
        guard !element.namespace.isEmpty, element.namespace != Namespace.client, element.namespace != Namespace.privateStorage else {
            throw StanzaError(type: "modify", condition: "not-acceptable", "store elements of a namespace of your own")
        }
        let services = context.services
        let key = Self.key(element)
        switch request.type {
        case "get":
            let stored = try await services.privateStorage.item(of: request.me.user, key: key)
                .flatMap { XMLFragment.elements($0, limits: services.configuration.limits)?.first }
            return XMLElement("query", namespace: Namespace.privateStorage, [:], children: [
                stored ?? XMLElement(element.name, namespace: element.namespace),
            ])
        default:
            try await services.privateStorage.set(element.serialized(), key: key, of: request.me.user,
                                                  limit: services.configuration.maxPrivateItems)
            return nil
        }
    }

    /// The storage key of an element: its name and namespace.
    static func key(_ element: XMLElement) -> String {
        "private " + element.name + " " + element.namespace
    }
}
