import ParleyCore
import ParleyProtocol

/// Presence subscriptions (RFC 6121 §3) = Parley's friend requests. Every friendship is
/// mutual: `subscribe` asks (a pending item with `ask='subscribe'` on every resource; to a
/// friend already, the server's own `subscribed`; if they had asked already, friends at once),
/// `subscribed` accepts their request, `unsubscribed` declines it, and either unsubscription
/// between friends ends the friendship.
struct SubscriptionHandler: XMPPPresenceHandler {
    var presenceTypes: [String] { ["subscribe", "subscribed", "unsubscribe", "unsubscribed"] }

    func handle(_ presence: XMLElement, to target: JID, me: XMPPIdentity, context: isolated some XMPPHandlerContext) async {
        let services = context.services
        let social = services.social
        let type = presence["type"] ?? ""
        do throws(ProtocolError) {
            let other = try await services.directory.user(for: target)
            switch type {
            case "subscribe":
                let outcome = try await social.requestFriend(from: me.user, FriendRequestParameters(userId: other), connection: context.token)
                // They had asked already: friends at once. The event of that leaves this
                // connection out (it gets the answer instead), so it is told here.
                if let friend = outcome.friend {
                    Self.announce(friend, me: me, context: context)
                } else if let request = outcome.request {
                    // Pending (RFC 6121 §3.1.2): every resource of the user sees the item with
                    // `ask='subscribe'`.
                    Self.pushToAll(RosterHandler.item(request.to, subscription: "none", ask: true, directory: services.directory),
                                   me: me, services: services)
                }
            case "subscribed":
                if let request = try await social.allIncomingRequests(of: me.user).first(where: { $0.from.id == other }) {
                    context.learn(try await social.accept(request.id, by: me.user))
                }
            default:
                if type == "unsubscribed",
                   let request = try await social.allIncomingRequests(of: me.user).first(where: { $0.from.id == other }) {
                    try await social.decline(request.id, by: me.user)
                } else if (try? await social.directConversation(of: me.user, with: other)) != nil {
                    try await social.removeFriend(other, by: me.user)
                }
            }
        } catch {
            if error.code == .alreadyFriends {
                // Already sharing presence: the server answers for the contact (RFC 6121 §3.1.3).
                if type == "subscribe" {
                    context.send(XMLElement("presence", ["type": "subscribed", "from": target.bare.description, "to": me.bare.description]))
                }
            } else {
                context.send(StanzaError(error).reply(to: presence, from: services.directory.domain))
            }
        }
    }

    /// A roster push to every stream of the user (RFC 6121 §2.1.6).
    static func pushToAll(_ item: XMLElement, me: XMPPIdentity, services: XMPPServices) {
        services.push(XMLElement("query", namespace: Namespace.roster, [:], children: [item]), to: me)
    }

    /// A new friend, as roster push, their subscription approval and, if online, presence.
    static func announce(_ friend: Friend, me: XMPPIdentity, context: isolated some XMPPHandlerContext) {
        let directory = context.services.directory
        context.learn(friend)
        let from = directory.jid(of: friend.user).description
        context.send(RosterHandler.push(RosterHandler.item(friend.user, subscription: "both", directory: directory), to: me.full))
        // A name and groups the user gave the item while it was pending (clients name an item,
        // then subscribe) come with a second push, once read: the push above replaced the item.
        let services = context.services
        let profile = friend.user
        Task {
            guard let stored = try? await services.privateStorage.item(of: me.user, key: RosterHandler.key(profile.id)),
                  let annotation = RosterHandler.annotation(stored) else { return }
            context.send(RosterHandler.push(RosterHandler.item(profile, subscription: "both", directory: directory, annotation: annotation),
                                                  to: me.full))
        }
        context.send(XMLElement("presence", ["type": "subscribed", "from": from, "to": me.bare.description]))
        for presence in PresenceHandler.current(of: friend, to: me.full, services: context.services) { context.send(presence) }
        // The new friend's streams learn this resource's presence (sent to friends only so far).
        if let resource = me.full.resource,
           let mine = context.services.resources.available(me.user).first(where: { $0.resource == resource }) {
            PresenceHandler.broadcast(mine.presence, from: me, to: [friend.user.id], services: context.services, excluding: nil)
        }
    }

    /// A friend request as the subscription request a client shows (its greeting as status).
    static func request(_ request: FriendRequest, to: JID, directory: XMPPDirectory) -> XMLElement {
        directory.remember(request.from)
        return XMLElement("presence", ["type": "subscribe", "from": directory.jid(of: request.from).description, "to": to.description],
                          children: request.greeting.map { [XMLElement("status", [:], text: $0)] } ?? [])
    }
}
