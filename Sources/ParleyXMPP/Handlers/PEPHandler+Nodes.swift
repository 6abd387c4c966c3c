import ParleyCore
import ParleyNet
import ParleyProtocol

// Every personal eventing node (XEP-0163) not mapped onto the profile or bookmarks: kept as
// the client publishes it (`PEPService`, in the store), so OMEMO's device lists and bundles,
// moods and tunes work as on any PEP service. A node comes into being with its first item
// (auto-create) and exists while it holds one; `<create>` of a new node is accepted and
// makes nothing until the first publish. Its access model (`presence` by default, `open`,
// `whitelist`) and `max_items` come from the publish options or the owner's configuration
// form; a publish's options replace the node's (XEP-0060's precondition is met by changing
// the node, which is what every client asking for them wants). Events go to the owner's own
// streams and, unless the node is `whitelist`, the friends' (each passes them on only to a
// client that asked with `+notify`).
extension PEPHandler {
    func node(_ action: XMLElement, request: XMPPRequest, context: isolated some XMPPHandlerContext) async throws -> XMLElement? {
        let services = context.services
        let pep = services.pep
        guard let node = action["node"], !node.isEmpty else {
            throw StanzaError(type: "modify", condition: "bad-request", "a node is needed",
                              application: XMLElement("nodeid-required", namespace: Namespace.pubsubErrors))
        }
        let me = request.me
        switch (request.type, action.name) {
        case ("get", "items"):
            let owner = if request.toSelf { me.user } else { try await services.directory.user(for: try target(request)) }
            var items = try await pep.items(of: owner, node: node, for: me.user)
            let wanted = Set(action.elements.filter { $0.name == "item" }.compactMap { $0["id"] })
            if !wanted.isEmpty { items = items.filter { wanted.contains($0.itemID) } }
            if let max = action["max_items"].flatMap({ Int($0) }), max >= 0 { items = Array(items.prefix(max)) }
            return XMLElement("pubsub", namespace: Namespace.pubsub, [:], children: [
                XMLElement("items", namespace: Namespace.pubsub, ["node": node],
                           children: items.compactMap { Self.item($0, namespace: Namespace.pubsub, services: services) }),
            ])
        case ("set", "publish") where request.toSelf:
            let item = action.child("item")
            guard let item, item.elements.count == 1, let payload = item.elements.first else {
                throw StanzaError(type: "modify", condition: "bad-request", "publish one <item> with one payload",
                                  application: XMLElement(item == nil ? "item-required" : "invalid-payload", namespace: Namespace.pubsubErrors))
            }
            let text = payload.serialized()
            guard text.utf8.count <= pep.limits.maxItemBytes else {
                throw StanzaError(type: "modify", condition: "not-acceptable", "an item holds at most \(pep.limits.maxItemBytes) bytes",
                                  application: XMLElement("payload-too-big", namespace: Namespace.pubsubErrors))
            }
            let id = item["id"].flatMap { $0.isEmpty ? nil : $0 } ?? Base64URL.encode(CryptoRandom.bytes(9))
            let options = request.query.child("publish-options").flatMap { DataForm(in: $0) }
            let settings = try await options.asyncMap { try await Self.settings(from: $0, node: node, owner: me.user, pep: pep) }
            let chosen = try await pep.publish(StoredPEPItem(owner: me.user, node: node, itemID: id, payload: text), settings: settings)
            let published = XMLElement("item", namespace: Namespace.pubsubEvent, ["id": id], children: [payload])
            await notify(XMLElement("items", namespace: Namespace.pubsubEvent, ["node": node], children: [published]),
                         settings: chosen, me: me, services: services)
            return XMLElement("pubsub", namespace: Namespace.pubsub, [:], children: [
                XMLElement("publish", namespace: Namespace.pubsub, ["node": node], children: [
                    XMLElement("item", namespace: Namespace.pubsub, ["id": id]),
                ]),
            ])
        case ("set", "retract") where request.toSelf:
            guard let id = action.child("item")?["id"] else { throw StanzaError.badRequest("retract an <item id>") }
            let settings = try await pep.retract(id, from: node, of: me.user)
            // XEP-0060 §7.2.2.1: subscribers hear of a retraction when the request asks for it.
            if Self.isTrue(action["notify"]) {
                await notify(XMLElement("items", namespace: Namespace.pubsubEvent, ["node": node], children: [
                    XMLElement("retract", namespace: Namespace.pubsubEvent, ["id": id]),
                ]), settings: settings, me: me, services: services)
            }
            return nil
        case ("set", "create") where request.toSelf:
            if (try? await pep.settings(of: me.user, node: node)) != nil {
                throw StanzaError(type: "cancel", condition: "conflict", "the node \(node) exists")
            }
            return nil
        default:
            throw request.unsupported
        }
    }

    /// `pubsub#owner` requests on one's own nodes: the configuration form, deleting and
    /// purging (a node is its items, so purging one deletes it too).
    func owner(_ action: XMLElement, request: XMPPRequest, context: isolated some XMPPHandlerContext) async throws -> XMLElement? {
        guard request.toSelf else { throw StanzaError(type: "auth", condition: "forbidden", "only the owner manages a node") }
        guard let node = action["node"], !node.isEmpty else { throw StanzaError.badRequest("a node is needed") }
        let services = context.services
        let pep = services.pep
        let me = request.me
        switch (request.type, action.name) {
        case ("get", "configure"):
            let settings = try await pep.settings(of: me.user, node: node)
            let form = DataForm(type: "form", fields: [
                ("FORM_TYPE", [Namespace.pubsubNodeConfig]),
                ("pubsub#access_model", [settings.accessModel.rawValue]),
                ("pubsub#max_items", [String(settings.maxItems)]),
            ])
            return XMLElement("pubsub", namespace: Namespace.pubsubOwner, [:], children: [
                XMLElement("configure", namespace: Namespace.pubsubOwner, ["node": node], children: [
                    form.element(kinds: ["FORM_TYPE": "hidden", "pubsub#access_model": "list-single", "pubsub#max_items": "text-single"]),
                ]),
            ])
        case ("set", "configure"):
            guard let form = DataForm(in: action), form.type == "submit" else { return nil }
            let settings = try await Self.settings(from: form, node: node, owner: me.user, pep: pep)
            try await pep.configure(node, of: me.user, settings: settings)
            return nil
        case ("set", "delete"), ("set", "purge"):
            let settings = try await pep.delete(node, of: me.user)
            await notify(XMLElement(action.name, namespace: Namespace.pubsubEvent, ["node": node]), settings: settings, me: me, services: services)
            return nil
        default:
            throw request.unsupported
        }
    }

    /// A node's settings from publish options or a configuration form, over the node's
    /// current ones (or the defaults for a new node). An access model Parley has no list
    /// for (`roster`, `authorize`) cannot be met.
    static func settings(from form: DataForm, node: String, owner: UserID, pep: PEPService) async throws -> PEPNodeSettings {
        var settings = (try? await pep.settings(of: owner, node: node)) ?? PEPNodeSettings()
        if let model = form["pubsub#access_model"] {
            guard let access = PEPAccessModel(rawValue: model) else {
                throw StanzaError(type: "cancel", condition: "conflict", "the access model \(model) is not offered (open, presence, whitelist)",
                                  application: XMLElement("precondition-not-met", namespace: Namespace.pubsubErrors))
            }
            settings.accessModel = access
        }
        if let max = form["pubsub#max_items"] {
            let parsed: Int? = max == "max" ? pep.limits.maxItemsPerNode : Int(max)
            guard let count = parsed, count >= 1 else {
                throw StanzaError.badRequest("pubsub#max_items is a number of at least 1, or max")
            }
            settings.maxItems = min(count, pep.limits.maxItemsPerNode)
        }
        return settings
    }

    /// A stored item as an `<item>` of `namespace` (nil if its payload no longer parses).
    static func item(_ stored: StoredPEPItem, namespace: String, services: XMPPServices) -> XMLElement? {
        guard let payload = XMLFragment.elements(stored.payload, limits: services.configuration.limits) else { return nil }
        return XMLElement("item", namespace: namespace, ["id": stored.itemID], children: payload)
    }

    /// The node's event to those its settings let hear of it.
    private func notify(_ content: XMLElement, settings: PEPNodeSettings, me: XMPPIdentity, services: XMPPServices) async {
        let users = await services.pep.audience(of: me.user, settings: settings)
        Self.forwardEvent(content, from: me.bare, to: users, services: services)
    }
}
