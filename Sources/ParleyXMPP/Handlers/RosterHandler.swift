import ParleyCore
import ParleyNet
import ParleyProtocol

/// The roster (RFC 6121 §2) = Parley's friend list. Every friendship is mutual, so every
/// item has subscription 'both'. A set names one item: removing it ends the friendship;
/// adding or renaming is accepted but changes nothing (friends come by subscription).
struct RosterHandler: XMPPHandler {
    var payloads: [XMPPPayload] { [XMPPPayload(Namespace.roster, "query")] }
    var features: [String] { [Namespace.roster] }

    func answer(_ request: XMPPRequest, context: isolated some XMPPHandlerContext) async throws -> XMLElement? {
        guard request.toSelf else { throw request.unsupported }
        let services = context.services
        if request.type == "get" {
            var result = XMLElement("query", namespace: Namespace.roster)
            for friend in try await services.social.allFriends(of: request.me.user) {
                context.learn(friend)
                result.append(Self.item(friend.user, subscription: "both", directory: services.directory))
            }
            return result
        }
        guard let item = request.query.child("item", namespace: Namespace.roster), let jid = item["jid"].flatMap(JID.init) else {
            throw ProtocolError(.missingField, "a roster set has one item with a jid", field: "jid")
        }
        if item["subscription"] == "remove" {
            let other = try await services.directory.user(for: jid)
            try await services.social.removeFriend(other, by: request.me.user)
        }
        return nil
    }

    /// A roster push (RFC 6121 §2.1.6) of `item` to the stream bound as `to`.
    static func push(_ item: XMLElement, to: JID) -> XMLElement {
        XMLElement("iq", ["type": "set", "id": "push-" + Base64.encode(CryptoRandom.bytes(6)), "to": to.description],
                   children: [XMLElement("query", namespace: Namespace.roster, [:], children: [item])])
    }

    /// A roster item for a user (results and pushes).
    static func item(_ profile: UserProfile, subscription: String, directory: XMPPDirectory) -> XMLElement {
        XMLElement("item", namespace: Namespace.roster, ["jid": directory.jid(of: profile).description,
                                                         "name": profile.nickname ?? profile.username,
                                                         "subscription": subscription])
    }
}
