import ParleyCore
import ParleyNet
import ParleyProtocol

/// Personal eventing (XEP-0163) on a user's bare JID, for the nodes Parley keeps, each mapped
/// onto what exists: User Nickname (XEP-0172, `http://jabber.org/protocol/nick`) is the
/// profile's nickname, and PEP native bookmarks (XEP-0402, `urn:xmpp:bookmarks:1`) are the
/// XEP-0048 bookmarks in private storage (`PEPHandler+Bookmarks`), so clients of either kind
/// see the same rooms. Every other node is kept as clients publish it (`PEPHandler+Nodes`:
/// OMEMO's device lists and bundles, moods, tunes, …), in the store through `PEPService`.
///
/// The nickname: reading the node (`<items>`) is the profile's nickname, anyone's, as the
/// profile is public; publishing to one's own is a profile update (the user's native clients
/// get `me.updated`), retracting the item clears it. A publish is announced as a PEP event
/// (`<message type='headline'><event>`) from the bare JID to the XMPP streams of the user and
/// the user's friends.
struct PEPHandler: XMPPHandler {
    var payloads: [XMPPPayload] { [XMPPPayload(Namespace.pubsub, "pubsub"), XMPPPayload(Namespace.pubsubOwner, "pubsub")] }
    var features: [String] {
        ["publish", "retrieve-items", "retract-items", "delete-nodes", "purge-nodes", "create-nodes", "auto-create", "publish-options",
         "persistent-items", "last-published", "access-presence", "access-open", "access-whitelist", "config-node", "item-ids",
         "presence-notifications", "filtered-notifications"].map { Namespace.pubsub + "#" + $0 }
    }

    /// The id of the node's one item.
    static let itemID = "current"

    func answer(_ request: XMPPRequest, context: isolated some XMPPHandlerContext) async throws -> XMLElement? {
        let services = context.services
        guard let action = request.query.elements.first else { throw StanzaError.badRequest("an empty pubsub request") }
        if request.query.namespace == Namespace.pubsubOwner {
            return try await owner(action, request: request, context: context)
        }
        if action["node"] == Namespace.bookmarks2 {
            return try await bookmarks(action, request: request, context: context)
        }
        if action["node"] == Namespace.avatarMetadata || action["node"] == Namespace.avatarData {
            return try await avatar(action, request: request, context: context)
        }
        guard action["node"] == Namespace.nick else {
            return try await node(action, request: request, context: context)
        }
        switch (request.type, action.name) {
        case ("get", "items"):
            let user = if request.toSelf { request.me.user } else { try await services.directory.user(for: try target(request)) }
            let profile = try await services.accounts.profile(id: user)
            return XMLElement("pubsub", namespace: Namespace.pubsub, [:], children: [Self.items(profile.nickname)])
        case ("set", "publish") where request.toSelf:
            let nick = action.child("item")?.child("nick", namespace: Namespace.nick)?.text.trimmingWhitespace
            guard let nick else { throw StanzaError.badRequest("publish an <item> with a <nick xmlns='\(Namespace.nick)'>") }
            try await update(nick.isEmpty ? .clear : .set(nick), request: request, context: context)
            return XMLElement("pubsub", namespace: Namespace.pubsub, [:], children: [
                XMLElement("publish", namespace: Namespace.pubsub, ["node": Namespace.nick], children: [
                    XMLElement("item", namespace: Namespace.pubsub, ["id": Self.itemID]),
                ]),
            ])
        case ("set", "retract") where request.toSelf:
            try await update(.clear, request: request, context: context)
            return nil
        default:
            throw request.unsupported
        }
    }

    func target(_ request: XMPPRequest) throws -> JID {
        guard let target = request.target else { throw request.unsupported }
        return target
    }

    /// The profile update, told to the user's native clients. The PEP event to the XMPP
    /// streams of the user and the user's friends follows from the change itself
    /// (`XMPPServices.profileChanged`), as for a change made natively or by vCard.
    func update(_ nickname: FieldPatch<String>, request: XMPPRequest, context: isolated some XMPPHandlerContext) async throws {
        let services = context.services
        let account = try await services.accounts.updateProfile(of: request.me.user, with: ProfileUpdate(nickname: nickname))
        context.accountChanged(account)
        services.delivery.deliver(.meUpdated(account), to: [request.me.user], excluding: context.token)
    }

    /// A PEP event (`<event>` of `pubsub#event` around `content`: `<items>`, `<delete>` or
    /// `<purge>`) from the owner's bare JID to the XMPP streams of `users`, each of which
    /// passes it on only if its client asked for the node's events (`+notify`).
    static func forwardEvent(_ content: XMLElement, from owner: JID, to users: [UserID], services: XMPPServices) {
        let event = XMLElement("event", namespace: Namespace.pubsubEvent, [:], children: [content])
        services.registry.forward(ForwardedStanza(type: "headline", id: "pep-" + Base64.encode(CryptoRandom.bytes(6)),
                                                  from: owner.bare.description, children: event.serialized()),
                                  to: users, excluding: nil)
    }

    /// A PEP event from the user's bare JID to the XMPP streams of the user and the user's
    /// friends.
    static func announce(_ items: XMLElement, owner: UserID, from jid: JID, services: XMPPServices) async {
        let friends = (try? await services.social.allFriends(of: owner).map(\.user.id)) ?? []
        forwardEvent(items, from: jid, to: friends + [owner], services: services)
    }

    /// The node's items: the one item with the nickname, or none when there is none.
    static func items(_ nickname: String?, namespace: String = Namespace.pubsub) -> XMLElement {
        XMLElement("items", namespace: namespace, ["node": Namespace.nick], children: nickname.map { nickname in
            [XMLElement("item", namespace: namespace, ["id": itemID], children: [XMLElement("nick", namespace: Namespace.nick, [:], text: nickname)])]
        } ?? [])
    }
}
