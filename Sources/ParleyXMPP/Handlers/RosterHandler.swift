import Foundation
import ParleyCore
import ParleyNet
import ParleyProtocol

/// The roster (RFC 6121 §2) = Parley's friend list. Every friendship is mutual, so every
/// friend's item has subscription 'both'; a request the user sent and that waits is an item
/// with subscription 'none' and `ask='subscribe'`. The names and groups a user gives items
/// are kept per user (`PrivateStorageService`) and pushed to all of the user's resources; a
/// set with `subscription='remove'` ends the friendship.
struct RosterHandler: XMPPHandler {
    var payloads: [XMPPPayload] { [XMPPPayload(Namespace.roster, "query")] }
    var features: [String] { [Namespace.roster] }

    /// The name and groups a user gave a roster item.
    struct Annotation: Codable, Equatable {
        var name: String?
        var groups: [String]
    }

    func answer(_ request: XMPPRequest, context: isolated some XMPPHandlerContext) async throws -> XMLElement? {
        guard request.toSelf else { throw request.unsupported }
        let services = context.services
        let me = request.me
        if request.type == "get" {
            return try await roster(of: me, context: context)
        }
        guard let item = request.query.child("item", namespace: Namespace.roster), let jid = item["jid"].flatMap(JID.init) else {
            throw ProtocolError(.missingField, "a roster set has one item with a jid", field: "jid")
        }
        let other = try await services.directory.user(for: jid)
        if item["subscription"] == "remove" {
            try await services.privateStorage.set(nil, key: Self.key(other), of: me.user, limit: services.configuration.maxPrivateItems)
            try await services.social.removeFriend(other, by: me.user)
            return nil
        }
        // A name and groups: kept, and pushed to every resource (RFC 6121 §2.3.2).
        let groups = item.elements.filter { $0.name == "group" && $0.namespace == Namespace.roster }.map(\.text)
        let annotation = Annotation(name: item["name"].flatMap { $0.isEmpty ? nil : $0 }, groups: groups)
        let value = annotation.name == nil && groups.isEmpty ? nil : String(decoding: try JSONEncoder().encode(annotation), as: UTF8.self)
        try await services.privateStorage.set(value, key: Self.key(other), of: me.user, limit: services.configuration.maxPrivateItems)
        let profile = try await services.accounts.profile(id: other)
        let friends = (try? await services.social.directConversation(of: me.user, with: other)) != nil
        let pushed = Self.item(profile, subscription: friends ? "both" : "none", directory: services.directory, annotation: annotation)
        SubscriptionHandler.pushToAll(pushed, me: me, services: services)
        return nil
    }

    /// The whole roster: friends, pending requests the user sent, and users the user named
    /// without either, each with the name and groups the user gave it.
    private func roster(of me: XMPPIdentity, context: isolated some XMPPHandlerContext) async throws -> XMLElement {
        let services = context.services
        let social = services.social
        var annotations = try await Self.annotations(of: me.user, services: services)
        var result = XMLElement("query", namespace: Namespace.roster)
        for friend in try await social.allFriends(of: me.user) {
            context.learn(friend)
            result.append(Self.item(friend.user, subscription: "both", directory: services.directory,
                                    annotation: annotations.removeValue(forKey: friend.user.id)))
        }
        // Requests the user sent and that wait: pending items (RFC 6121 §2.1.2.2).
        let outgoing = try await AnswerPages.collect { cursor throws(ProtocolError) in
            let page = try await social.requests(of: me.user, FriendRequestsParameters(direction: .outgoing, cursor: cursor))
            return (page.outgoing, page.nextOutgoingCursor)
        }
        for pending in outgoing {
            services.directory.remember(pending.to)
            result.append(Self.item(pending.to, subscription: "none", ask: true, directory: services.directory,
                                    annotation: annotations.removeValue(forKey: pending.to.id)))
        }
        for (user, annotation) in annotations.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            guard let profile = try? await services.accounts.profile(id: user) else { continue }
            services.directory.remember(profile)
            result.append(Self.item(profile, subscription: "none", directory: services.directory, annotation: annotation))
        }
        return result
    }

    /// The storage key of the annotation of the item for `user`.
    static func key(_ user: UserID) -> String {
        "roster " + String(user.rawValue)
    }

    /// Every annotation the user keeps, by the user it is of.
    static func annotations(of user: UserID, services: XMPPServices) async throws -> [UserID: Annotation] {
        var result: [UserID: Annotation] = [:]
        for (key, value) in try await services.privateStorage.items(of: user, keyPrefix: "roster ") {
            guard let raw = Int64(key.dropFirst(7)), let annotation = annotation(value) else { continue }
            result[UserID(rawValue: raw)] = annotation
        }
        return result
    }

    /// A stored annotation read back; nil if it is not one.
    static func annotation(_ value: String) -> Annotation? {
        try? JSONDecoder().decode(Annotation.self, from: Data(value.utf8))
    }

    /// A roster push (RFC 6121 §2.1.6) of `item` to the stream bound as `to`.
    static func push(_ item: XMLElement, to: JID) -> XMLElement {
        XMLElement("iq", ["type": "set", "id": "push-" + Base64.encode(CryptoRandom.bytes(6)), "to": to.description],
                   children: [XMLElement("query", namespace: Namespace.roster, [:], children: [item])])
    }

    /// A roster item for a user (results and pushes). `ask`: a subscription request of the
    /// user's is pending; `annotation`: the name and groups the user gave it (else the
    /// contact's own nickname or username as its name).
    static func item(_ profile: UserProfile, subscription: String, ask: Bool = false, directory: XMPPDirectory,
                     annotation: Annotation? = nil) -> XMLElement {
        XMLElement("item", namespace: Namespace.roster, ["jid": directory.jid(of: profile).description,
                                                         "name": annotation?.name ?? profile.nickname ?? profile.username,
                                                         "subscription": subscription, "ask": ask ? "subscribe" : nil],
                   children: (annotation?.groups ?? []).map { XMLElement("group", namespace: Namespace.roster, [:], text: $0) })
    }
}
