import ParleyCore
import ParleyProtocol

/// `<presence>` from the client (RFC 6121 §4): without `to`, the user's own availability; to
/// the conference service, joining and leaving rooms (`MUCHandler`); to a user, by type
/// through the table (subscriptions, `SubscriptionHandler`).
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

    /// The user's own availability. The first available presence makes the stream
    /// available: it gets the friends who are online, the requests waiting, and the 1:1
    /// messages that came while the user had no XMPP connection (unread ones).
    private func handleOwn(_ presence: XMLElement, type: String, me: XMPPIdentity, context: isolated some XMPPHandlerContext) async {
        guard type == "available", context.becomeAvailable() else { return }
        let services = context.services
        let social = services.social
        if let friends = try? await social.allFriends(of: me.user) {
            for friend in friends {
                context.learn(friend)
                if friend.online { context.send(XMLElement("presence", ["from": context.address(of: friend.user.id).description, "to": me.full.description])) }
            }
        }
        if let requests = try? await social.allIncomingRequests(of: me.user) {
            for request in requests { context.send(SubscriptionHandler.request(request, to: me.full, directory: services.directory)) }
        }
        await context.catchUp(me: me)
    }
}
