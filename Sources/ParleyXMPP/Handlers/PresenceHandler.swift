import ParleyCore
import ParleyProtocol

/// `<presence>` from the client (RFC 6121 §4): without `to`, the availability of the stream's
/// resource; to the conference service, joining and leaving rooms (`MUCHandler`); to a user,
/// by type through the table (subscriptions, `SubscriptionHandler`).
///
/// Presence is per resource: a resource becomes available with its initial presence, which
/// goes, from its full JID and with its `show`, `status`, `priority` and caps as sent, to
/// the user's friends' streams and to all of the user's own, the sending one included
/// (§4.2.2); later changes and `unavailable` likewise. The stream that becomes available
/// gets the presence of every available resource of its friends and of its own user
/// (`XMPPResources`); a user's native clients each appear as a resource of their own
/// (`NativeResources`).
///
/// Held by the table as a field: every presence takes this path.
struct PresenceHandler: Sendable {
    func handle(_ presence: XMLElement, me: XMPPIdentity, context: isolated some XMPPHandlerContext) async {
        let services = context.services
        let type = presence["type"] ?? "available"
        guard let to = presence["to"] else {
            await handleOwn(presence, type: type, me: me, context: context)
            return
        }
        guard let jid = JID(to) else {
            context.send(StanzaError(type: "modify", condition: "jid-malformed", "not a JID").reply(to: presence, from: services.directory.domain))
            return
        }
        if jid.domain == MUCHandler.domain(of: services) {
            await context.handlers.muc.handlePresence(presence, room: jid, me: me, context: context)
            return
        }
        await context.handlers.presenceHandler(for: type)?.handle(presence, to: jid, me: me, context: context)
    }

    /// The resource's own availability. The first available presence makes the stream
    /// available: it gets the friends' available resources and its own user's others, the
    /// requests waiting, and the 1:1 messages that came while the user had no XMPP
    /// connection (unread ones).
    private func handleOwn(_ presence: XMLElement, type: String, me: XMPPIdentity, context: isolated some XMPPHandlerContext) async {
        let services = context.services
        guard let resource = me.full.resource else { return }
        switch type {
        case "available":
            let children = await Self.withPhotoHash(presence.elements, of: me.user, services: services)
            services.resources.setPresence(me.user, resource: resource, token: context.token, presence: children)
            let first = context.becomeAvailable()
            if first {
                await sendInitial(me: me, context: context)
                await context.sendLastPublished(me: me, of: nil)
            }
            Self.broadcast(children, from: me, to: context.friendIDs() + [me.user], services: services, excluding: nil)
            Self.tellNative(children, from: me, friends: context.friendIDs(), services: services, excluding: context.token)
            if first { await context.catchUp(me: me) }
        case "unavailable":
            services.resources.setPresence(me.user, resource: resource, token: context.token, presence: nil)
            context.becomeUnavailable()
            Self.broadcast(nil, from: me, to: context.friendIDs() + [me.user], services: services, excluding: nil)
            Self.tellNative(nil, from: me, friends: context.friendIDs(), services: services, excluding: context.token)
        default:
            // Probes and errors: a server answers probes itself; an error needs nothing.
            return
        }
    }

    /// What a stream gets when it becomes available: its friends as they are, its own
    /// user's other resources, and the friend requests waiting.
    private func sendInitial(me: XMPPIdentity, context: isolated some XMPPHandlerContext) async {
        let services = context.services
        let social = services.social
        let resources = services.resources
        if let friends = try? await social.allFriends(of: me.user) {
            for friend in friends {
                context.learn(friend)
                for presence in Self.current(of: friend, to: me.full, services: services) { context.send(presence) }
            }
        }
        for (resource, children) in resources.available(me.user) where resource != me.full.resource {
            context.send(Self.presence(from: me.bare.withResource(resource), to: me.full, children: children))
        }
        // The user's native clients: each a resource of its own (`NativeResources`); connected
        // only elsewhere (another server of a cluster), the one resource `parley`.
        let native = services.nativeResources.resources(of: me.user)
        for resource in native {
            context.send(Self.presence(from: me.bare.withResource(resource.name), to: me.full,
                                       children: NativePresence.elements(resource)))
        }
        if native.isEmpty && resources.streamCount(me.user) <= 1 && services.delivery.isOnline(me.user, excluding: context.token) {
            context.send(Self.presence(from: me.bare.withResource(XMPPResources.nativeResource), to: me.full,
                                       children: nil))
        }
        if let requests = try? await social.allIncomingRequests(of: me.user) {
            for request in requests { context.send(SubscriptionHandler.request(request, to: me.full, directory: services.directory)) }
        }
    }

    /// A friend's presence as it is now, for `to`: each of their available resources here,
    /// XMPP streams and native clients (`NativeResources`); online with neither here (their
    /// connections are on another server of a cluster), the resource `parley`.
    static func current(of friend: Friend, to: JID, services: XMPPServices) -> [XMLElement] {
        let resources = services.resources
        let local = XMPPDirectory.localPart(of: friend.user)
        let domain = services.directory.domain
        let available = resources.available(friend.user.id)
        let native = services.nativeResources.resources(of: friend.user.id)
        if available.isEmpty && native.isEmpty && friend.online && !resources.hasStreams(friend.user.id) {
            return [presence(from: JID(local: local, domain: domain, resource: XMPPResources.nativeResource), to: to, children: nil)]
        }
        return available.map { presence(from: JID(local: local, domain: domain, resource: $0.resource), to: to, children: $0.presence) }
            + native.map { presence(from: JID(local: local, domain: domain, resource: $0.name), to: to, children: NativePresence.elements($0)) }
    }

    /// Hands the resource's presence (its children; nil: unavailable) to the XMPP streams of
    /// `users`, on this server or any other of a cluster; each addresses it to itself.
    static func broadcast(_ children: [XMLElement]?, from me: XMPPIdentity, to users: [UserID], services: XMPPServices,
                          excluding: ConnectionToken?) {
        services.registry.forward(ForwardedStanza(stanza: "presence", type: children == nil ? "unavailable" : nil, id: nil,
                                                  from: me.full.description, children: children?.map { $0.serialized() }.joined() ?? ""),
                                  to: users, excluding: excluding)
    }

    /// The presence children with the hash of the user's avatar as `vcard-temp:x:update`
    /// (XEP-0153), in place of any the client sent: the server's conversion of the PEP avatar
    /// (XEP-0398), so that clients that know avatars by vCard see it and its changes. An
    /// empty `<photo/>` when the user has none; the children as they are when avatars are
    /// not kept.
    static func withPhotoHash(_ children: [XMLElement], of user: UserID, services: XMPPServices) async -> [XMLElement] {
        guard let media = services.media, let profile = try? await services.accounts.profile(id: user) else { return children }
        var hash: String?
        if let avatar = profile.avatar {
            hash = await PEPHandler.avatarInfo(avatar, media: media, services: services)?.id
        }
        let others = children.filter { $0.namespace != Namespace.vcardUpdate }
        // A bare `<presence/>` from a user without an avatar, the most common one, gets the
        // one shared array: every such resource's entry in `XMPPResources` refers to it
        // instead of holding its own three allocations.
        if others.isEmpty && hash == nil { return Self.noPhotoUpdate }
        return others + [Self.photoUpdate(hash)]
    }

    /// The vCard update element (XEP-0153) announcing `hash` (nil: no photo).
    private static func photoUpdate(_ hash: String?) -> XMLElement {
        XMLElement("x", namespace: Namespace.vcardUpdate, [:], children: [
            XMLElement("photo", namespace: Namespace.vcardUpdate, [:], text: hash),
        ])
    }

    /// The children of a bare presence without a photo, shared by every resource that has them.
    private static let noPhotoUpdate = [photoUpdate(nil)]

    /// Tells the native clients of the user and of `friends` of the resource's presence
    /// (children nil: unavailable), as `presence.resource`: Parley's own presence is per user,
    /// so this is how a native client sees its user's and its contacts' Jabber clients come
    /// and go.
    static func tellNative(_ children: [XMLElement]?, from me: XMPPIdentity, friends: [UserID], services: XMPPServices,
                           excluding: ConnectionToken?) {
        guard let resource = me.full.resource else { return }
        services.delivery.deliver(.resourcePresence(resourcePresence(resource, children, of: me.user)), to: friends + [me.user],
                                  excluding: excluding)
    }

    /// A Jabber resource's presence children as the native event's payload.
    static func resourcePresence(_ resource: String, _ children: [XMLElement]?, of user: UserID) -> ResourcePresence {
        ResourcePresence(resource: resource, available: children != nil, show: children?.first { $0.name == "show" }?.text,
                         status: children?.first { $0.name == "status" }?.text, userId: user, client: ResourcePresence.xmppClient)
    }

    /// A presence stanza from a resource (children nil: no show or status).
    static func presence(from: JID, to: JID, children: [XMLElement]?, type: String? = nil) -> XMLElement {
        XMLElement("presence", ["type": type, "from": from.description, "to": to.description], children: children ?? [])
    }
}
