import ParleyCore
import ParleyNet
import ParleyProtocol

// PEP native bookmarks (XEP-0402, node `urn:xmpp:bookmarks:1`) kept in step with the XEP-0048
// bookmarks in private storage (`<storage xmlns='storage:bookmarks'>`, `PrivateStorageHandler`):
// the node's items are the stored `<conference>`s, one per room JID (the item id), and a
// publish or retract rewrites that one element. A client of either kind sees what the other
// set. The node is the user's own (its access model is XEP-0402's whitelist): another user's
// is `forbidden`, and its events go to the user's own streams only.
extension PEPHandler {
    func bookmarks(_ action: XMLElement, request: XMPPRequest, context: isolated some XMPPHandlerContext) async throws -> XMLElement? {
        guard request.toSelf else { throw StanzaError(type: "auth", condition: "forbidden", "bookmarks are one's own") }
        let services = context.services
        let user = request.me.user
        var storage = try await storedBookmarks(of: user, services: services)
        switch (request.type, action.name) {
        case ("get", "items"):
            let wanted = Set(action.elements.filter { $0.name == "item" }.compactMap { $0["id"] })
            let conferences = storage.elements.filter { $0.name == "conference" && (wanted.isEmpty || wanted.contains($0["jid"] ?? "")) }
            return XMLElement("pubsub", namespace: Namespace.pubsub, [:], children: [
                XMLElement("items", namespace: Namespace.pubsub, ["node": Namespace.bookmarks2],
                           children: conferences.compactMap { Self.item($0, namespace: Namespace.pubsub) }),
            ])
        case ("set", "publish"):
            guard let item = action.child("item"), let id = item["id"], let room = JID(id), room.local != nil,
                  let conference = item.child("conference", namespace: Namespace.bookmarks2) else {
                throw StanzaError.badRequest("publish an <item id='room JID'> with a <conference xmlns='\(Namespace.bookmarks2)'>")
            }
            var legacy = XMLElement("conference", namespace: Namespace.bookmarks, ["jid": room.bare.description, "name": conference["name"],
                                                                                   "autojoin": Self.isTrue(conference["autojoin"]) ? "true" : "false"])
            for name in ["nick", "password"] {
                if let value = conference.child(name)?.text, !value.isEmpty {
                    legacy.append(XMLElement(name, namespace: Namespace.bookmarks, [:], text: value))
                }
            }
            Self.remove(room.bare.description, from: &storage)
            storage.append(legacy)
            try await save(storage, of: user, services: services)
            notify(XMLElement("items", namespace: Namespace.pubsubEvent, ["node": Namespace.bookmarks2],
                              children: [Self.item(legacy, namespace: Namespace.pubsubEvent)].compactMap { $0 }),
                   me: request.me, services: services)
            return XMLElement("pubsub", namespace: Namespace.pubsub, [:], children: [
                XMLElement("publish", namespace: Namespace.pubsub, ["node": Namespace.bookmarks2], children: [
                    XMLElement("item", namespace: Namespace.pubsub, ["id": room.bare.description]),
                ]),
            ])
        case ("set", "retract"):
            guard let id = action.child("item")?["id"] else { throw StanzaError.badRequest("retract an <item id='room JID'>") }
            Self.remove(id, from: &storage)
            try await save(storage, of: user, services: services)
            notify(XMLElement("items", namespace: Namespace.pubsubEvent, ["node": Namespace.bookmarks2], children: [
                XMLElement("retract", namespace: Namespace.pubsubEvent, ["id": id]),
            ]), me: request.me, services: services)
            return nil
        default:
            throw request.unsupported
        }
    }

    /// The private-storage key of the XEP-0048 bookmarks.
    static var storageKey: String {
        PrivateStorageHandler.key(XMLElement("storage", namespace: Namespace.bookmarks))
    }

    private func storedBookmarks(of user: UserID, services: XMPPServices) async throws -> XMLElement {
        let stored = try await services.privateStorage.item(of: user, key: Self.storageKey)
            .flatMap { XMLFragment.elements($0, limits: services.configuration.limits)?.first }
        return stored ?? XMLElement("storage", namespace: Namespace.bookmarks)
    }

    private func save(_ storage: XMLElement, of user: UserID, services: XMPPServices) async throws {
        try await services.privateStorage.set(storage.serialized(), key: Self.storageKey, of: user,
                                              limit: services.configuration.maxPrivateItems)
    }

    /// A XEP-0048 `<conference>` as a XEP-0402 item (nil without a room JID).
    static func item(_ legacy: XMLElement, namespace: String) -> XMLElement? {
        guard let jid = legacy["jid"] else { return nil }
        var conference = XMLElement("conference", namespace: Namespace.bookmarks2, ["name": legacy["name"],
                                                                                    "autojoin": isTrue(legacy["autojoin"]) ? "true" : nil])
        for name in ["nick", "password"] {
            if let value = legacy.child(name)?.text, !value.isEmpty {
                conference.append(XMLElement(name, namespace: Namespace.bookmarks2, [:], text: value))
            }
        }
        return XMLElement("item", namespace: namespace, ["id": jid], children: [conference])
    }

    static func isTrue(_ value: String?) -> Bool {
        value == "true" || value == "1"
    }

    private static func remove(_ jid: String, from storage: inout XMLElement) {
        let target = JID(jid)?.bare.description ?? jid
        storage.children.removeAll { node in
            guard case .element(let element) = node, element.name == "conference" else { return false }
            return (element["jid"].flatMap(JID.init)?.bare.description ?? element["jid"]) == target
        }
    }

    /// The PEP event to the user's own streams (the node is private).
    private func notify(_ items: XMLElement, me: XMPPIdentity, services: XMPPServices) {
        Self.forwardEvent(items, from: me.bare, to: [me.user], services: services)
    }
}
