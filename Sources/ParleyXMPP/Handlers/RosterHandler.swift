import ParleyCore
import ParleyNet
import ParleyProtocol

/// The roster (RFC 6121 §2) = Parley's friend list. Every friendship is mutual, so every
/// friend's item has subscription 'both'; a request the user sent and that waits is an item
/// with subscription 'none' and `ask='subscribe'`. A set names one item: removing it ends the friendship;
/// adding or renaming is accepted but changes nothing (friends come by subscription).
struct RosterHandler: XMPPHandler {
    var payloads: [XMPPPayload] { [XMPPPayload(Namespace.roster, "query")] }
    var features: [String] { [Namespace.roster] }

    func answer(_ request: XMPPRequest, context: isolated some XMPPHandlerContext) async throws -> XMLElement? {
        guard request.toSelf else { throw request.unsupported }
        let services = context.services
        if request.type == "get" {
            var result = XMLElement("query", namespace: Namespace.roster)
            let social = services.social
            let me = request.me.user
            for friend in try await social.allFriends(of: me) {
                context.learn(friend)
                result.append(Self.item(friend.user, subscription: "both", directory: services.directory))
            }
            // Requests the user sent and that wait: pending items (RFC 6121 §2.1.2.2).
            let outgoing = try await AnswerPages.collect { cursor throws(ProtocolError) in
                let page = try await social.requests(of: me, FriendRequestsParameters(direction: .outgoing, cursor: cursor))
                return (page.outgoing, page.nextOutgoingCursor)
            }
            for pending in outgoing {
                services.directory.remember(pending.to)
                result.append(Self.item(pending.to, subscription: "none", ask: true, directory: services.directory))
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
    /// `ask`: a subscription request of the user's is pending.
    static func item(_ profile: UserProfile, subscription: String, ask: Bool = false, directory: XMPPDirectory) -> XMLElement {
        XMLElement("item", namespace: Namespace.roster, ["jid": directory.jid(of: profile).description,
                                                         "name": profile.nickname ?? profile.username,
                                                         "subscription": subscription, "ask": ask ? "subscribe" : nil])
    }
}
