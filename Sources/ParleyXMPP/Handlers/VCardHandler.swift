import ParleyCore
import ParleyNet
import ParleyProtocol

/// vCard (XEP-0054) = a user's profile: nickname, avatar link and signature. Setting one's
/// own updates the profile, which the user's other devices hear of as of a native
/// `me.update`.
struct VCardHandler: XMPPHandler {
    var payloads: [XMPPPayload] { [XMPPPayload(Namespace.vcard, "vCard")] }
    var features: [String] { [Namespace.vcard] }

    func answer(_ request: XMPPRequest, context: isolated some XMPPHandlerContext) async throws -> XMLElement? {
        let services = context.services
        switch request.type {
        case "get":
            let user = if request.toSelf { request.me.user } else { try await services.directory.user(for: try target(request)) }
            return await card(try await services.accounts.profile(id: user), services: services)
        case "set" where request.toSelf:
            var update = update(from: request.query, services: services)
            // An embedded photo (XEP-0153, XEP-0398) is stored as an image like an upload.
            if let media = services.media, let text = request.query.child("PHOTO")?.child("BINVAL")?.text,
               let bytes = Base64.decode(text.filter { !$0.isWhitespace }), !bytes.isEmpty {
                update.avatar = .set(try await media.upload(bytes, owner: request.me.user).url)
            }
            let account = try await services.accounts.updateProfile(of: request.me.user, with: update)
            context.accountChanged(account)
            services.delivery.deliver(.meUpdated(account), to: [request.me.user], excluding: context.token)
            return nil
        default:
            throw request.unsupported
        }
    }

    private func target(_ request: XMPPRequest) throws -> JID {
        guard let target = request.target else { throw request.unsupported }
        return target
    }

    private func card(_ profile: UserProfile, services: XMPPServices) async -> XMLElement {
        var card = XMLElement("vCard", namespace: Namespace.vcard)
        if let nickname = profile.nickname {
            card.append(XMLElement("NICKNAME", namespace: Namespace.vcard, [:], text: nickname))
            card.append(XMLElement("FN", namespace: Namespace.vcard, [:], text: nickname))
        }
        if let avatar = profile.avatar {
            var photo = XMLElement("PHOTO", namespace: Namespace.vcard, [:], children: [
                XMLElement("EXTVAL", namespace: Namespace.vcard, [:], text: services.absoluteURL(avatar)),
            ])
            // This server's image also embedded, which is what clients hash and show
            // (XEP-0153; the same image as the PEP avatar, XEP-0398).
            if let media = services.media, let (info, bytes) = try? await PEPHandler.avatar(avatar, media: media, services: services) {
                photo.append(XMLElement("TYPE", namespace: Namespace.vcard, [:], text: info.type))
                photo.append(XMLElement("BINVAL", namespace: Namespace.vcard, [:], text: Base64.encode(bytes)))
            }
            card.append(photo)
        }
        if let signature = profile.signature {
            card.append(XMLElement("DESC", namespace: Namespace.vcard, [:], text: signature))
        }
        return card
    }

    private func update(from card: XMLElement, services: XMPPServices) -> ProfileUpdate {
        var update = ProfileUpdate()
        let nickname = (card.child("NICKNAME") ?? card.child("FN"))?.text.trimmingWhitespace
        update.nickname = nickname.map { $0.isEmpty ? .clear : .set($0) } ?? .clear
        if let url = card.child("PHOTO")?.child("EXTVAL")?.text.trimmingWhitespace, !url.isEmpty {
            update.avatar = .set(services.mediaPath(url))
        }
        return update
    }
}
