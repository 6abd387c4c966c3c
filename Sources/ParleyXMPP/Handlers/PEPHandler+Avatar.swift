import ParleyCore
import ParleyNet
import ParleyProtocol

// User Avatar (XEP-0084) as the profile's avatar: the metadata node describes the profile's
// avatar image (SHA-1 id, size, type, and its link), the data node holds its bytes (base64).
// Publishing data to one's own node stores the image as media (`MediaService.upload`, the
// same checks as `POST /v1/media`: PNG, JPEG, GIF or WebP, the size limit) and makes it the
// profile's avatar; publishing metadata announces it (an empty `<metadata/>` removes the
// avatar). The metadata event goes to the user's and friends' XMPP streams whenever the
// profile's avatar changes, here, by vCard or natively (`XMPPServices.profileChanged`).
// Anyone's avatar can be read, as the profile is public.
extension PEPHandler {
    func avatar(_ action: XMLElement, request: XMPPRequest, context: isolated some XMPPHandlerContext) async throws -> XMLElement? {
        let services = context.services
        guard let media = services.media else {
            throw StanzaError(type: "cancel", condition: "feature-not-implemented", "avatars are not kept here")
        }
        let node = action["node"] ?? ""
        switch (request.type, action.name) {
        case ("get", "items"):
            let user = if request.toSelf { request.me.user } else { try await services.directory.user(for: try target(request)) }
            let profile = try await services.accounts.profile(id: user)
            guard let avatar = profile.avatar, let (info, bytes) = try await Self.avatar(avatar, media: media, services: services) else {
                return XMLElement("pubsub", namespace: Namespace.pubsub, [:], children: [
                    XMLElement("items", namespace: Namespace.pubsub, ["node": node]),
                ])
            }
            let payload = node == Namespace.avatarData
                ? XMLElement("data", namespace: Namespace.avatarData, [:], text: Base64.encode(bytes))
                : Self.metadata(info, url: services.absoluteURL(avatar))
            return XMLElement("pubsub", namespace: Namespace.pubsub, [:], children: [
                XMLElement("items", namespace: Namespace.pubsub, ["node": node], children: [
                    XMLElement("item", namespace: Namespace.pubsub, ["id": info.id], children: [payload]),
                ]),
            ])
        case ("set", "publish") where request.toSelf && node == Namespace.avatarData:
            guard let text = action.child("item")?.child("data", namespace: Namespace.avatarData)?.text,
                  let bytes = Base64.decode(text.filter { !$0.isWhitespace }) else {
                throw StanzaError.badRequest("publish an <item> with <data xmlns='\(Namespace.avatarData)'> in base64")
            }
            let stored = try await media.upload(bytes, owner: request.me.user)
            let id = AvatarIDs.id(of: bytes)
            services.avatarIDs.remember(AvatarIDs.Info(id: id, bytes: bytes.count, type: stored.type), for: stored.id)
            let account = try await services.accounts.updateProfile(of: request.me.user, with: ProfileUpdate(avatar: .set(stored.url)))
            context.accountChanged(account)
            services.delivery.deliver(.meUpdated(account), to: [request.me.user], excluding: context.token)
            return Self.published(node, id: id)
        case ("set", "publish") where request.toSelf && node == Namespace.avatarMetadata:
            // The event to friends follows from the profile's change (`XMPPServices.profileChanged`):
            // the data's publish set the avatar, and an empty `<metadata/>` removes it here.
            let metadata = action.child("item")?.child("metadata", namespace: Namespace.avatarMetadata)
            var profile = try await services.accounts.profile(id: request.me.user)
            if metadata?.child("info") == nil {
                let account = try await services.accounts.updateProfile(of: request.me.user, with: ProfileUpdate(avatar: .clear))
                context.accountChanged(account)
                services.delivery.deliver(.meUpdated(account), to: [request.me.user], excluding: context.token)
                profile = account.profile
            }
            let current = await profile.avatar.asyncMap { await Self.avatarInfo($0, media: media, services: services) } ?? nil
            return Self.published(node, id: current?.id ?? "none")
        default:
            throw request.unsupported
        }
    }

    /// The avatar's facts and bytes, if it is one of this server's images.
    static func avatar(_ avatar: String, media: MediaService, services: XMPPServices) async throws -> (AvatarIDs.Info, [UInt8])? {
        let path = services.mediaPath(avatar)
        guard path.hasPrefix("/v1/media/") else { return nil }
        let id = String(path.dropFirst("/v1/media/".count))
        guard let (stored, bytes) = try? await media.download(id: id) else { return nil }
        let info = services.avatarIDs.info(of: id) ?? AvatarIDs.Info(id: AvatarIDs.id(of: bytes), bytes: bytes.count, type: stored.mimeType)
        services.avatarIDs.remember(info, for: id)
        return (info, bytes)
    }

    /// The avatar's facts alone: known ones without loading the image again.
    static func avatarInfo(_ avatar: String, media: MediaService, services: XMPPServices) async -> AvatarIDs.Info? {
        let path = services.mediaPath(avatar)
        guard path.hasPrefix("/v1/media/") else { return nil }
        if let known = services.avatarIDs.info(of: String(path.dropFirst("/v1/media/".count))) { return known }
        return (try? await Self.avatar(avatar, media: media, services: services))??.0
    }

    /// The metadata node's event for the profile's avatar: its facts, or an empty
    /// `<metadata/>` when there is none (or it is a link elsewhere).
    static func metadataEvent(_ avatar: String?, media: MediaService, services: XMPPServices) async -> XMLElement {
        let info = await avatar.asyncMap { await Self.avatarInfo($0, media: media, services: services) } ?? nil
        let metadata = info.map { Self.metadata($0, url: services.absoluteURL(avatar ?? "")) }
            ?? XMLElement("metadata", namespace: Namespace.avatarMetadata)
        return XMLElement("items", namespace: Namespace.pubsubEvent, ["node": Namespace.avatarMetadata], children: [
            XMLElement("item", namespace: Namespace.pubsubEvent, ["id": info?.id ?? "none"], children: [metadata]),
        ])
    }

    /// The facts of the avatar's image as XEP-0084 metadata.
    static func metadata(_ info: AvatarIDs.Info, url: String) -> XMLElement {
        XMLElement("metadata", namespace: Namespace.avatarMetadata, [:], children: [
            XMLElement("info", namespace: Namespace.avatarMetadata, ["id": info.id, "bytes": String(info.bytes), "type": info.type, "url": url]),
        ])
    }

    private static func published(_ node: String, id: String) -> XMLElement {
        XMLElement("pubsub", namespace: Namespace.pubsub, [:], children: [
            XMLElement("publish", namespace: Namespace.pubsub, ["node": node], children: [XMLElement("item", namespace: Namespace.pubsub, ["id": id])]),
        ])
    }
}

extension Optional {
    /// `map` with an async transform.
    func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
        guard let value = self else { return nil }
        return try await transform(value)
    }
}
