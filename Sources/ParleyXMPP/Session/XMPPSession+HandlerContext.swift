import ParleyCore
import ParleyProtocol

// The session as its handlers see it (`XMPPHandlerContext`); `send`, `token`, `services` and
// `handlers` are the session's own.
extension XMPPSession: XMPPHandlerContext, CompletionHop {
    nonisolated var completionHop: any CompletionHop { self }

    /// Queues `work` on the session's loop (a store's writer hands a send's outcome back
    /// here: one closure on the loop's queue, and a wake-up if it sleeps).
    nonisolated func hop(_ work: @escaping @Sendable () -> Void) {
        loop.execute(work)
    }

    func setCarbons(_ enabled: Bool) {
        state.carbons = enabled
    }

    func accountChanged(_ account: Account) {
        state.account = account
    }

    /// Remembers a friend's address and 1:1 conversation.
    func learn(_ friend: Friend) {
        services.directory.remember(friend.user)
        state.directPeers[friend.conversationId] = friend.user.id
        state.localParts[friend.user.id] = XMPPDirectory.localPart(of: friend.user)
    }

    func remember(_ profile: UserProfile) {
        services.directory.remember(profile)
        state.localParts[profile.id] = XMPPDirectory.localPart(of: profile)
    }

    func localPart(of user: UserID) -> String? {
        if let known = state.localParts[user] { return known }
        // The user's own is the account's (as `me`'s), not kept in `localParts`: a user with
        // no friends yet then holds no dictionary at all.
        guard let account = state.account, account.profile.id == user else { return nil }
        return XMPPDirectory.localPart(of: account.profile)
    }

    func knownConversation(with user: UserID) -> ConversationID? {
        state.directPeers.first { $0.value == user }?.key
    }

    func joinedChat(_ room: JID) -> (ConversationID, ConversationKind)? {
        joinedRoom(room).map { ($0.0, $0.1.kind) }
    }

    func joinedRoom(_ jid: JID) -> (ConversationID, JoinedRoom)? {
        state.joined.first { $0.value.jid == jid.bare }.map { ($0.key, $0.value) }
    }

    func setJoined(_ room: JoinedRoom?, for conversation: ConversationID) {
        state.joined[conversation] = room
    }

    func becomeAvailable() -> Bool {
        state.present = true
        guard !state.available else { return false }
        state.available = true
        chatDelivery = .catchingUp
        return true
    }

    func becomeUnavailable() {
        state.present = false
    }

    func friendIDs() -> [UserID] {
        Array(Set(state.directPeers.values))
    }

    /// The stream ended (not to be resumed): its resource is unbound and, if it was
    /// available, its contacts and the user's other resources see it go.
    func resourceEnded(me: XMPPIdentity) {
        guard let resource = me.full.resource else { return }
        services.resources.unbind(me.user, resource: resource, token: token)
        guard state.present else { return }
        state.present = false
        PresenceHandler.broadcast(nil, from: me, to: friendIDs() + [me.user], services: services, excluding: token)
        PresenceHandler.tellNative(nil, from: me, friends: friendIDs(), services: services, excluding: token)
    }

    func catchUp(me: XMPPIdentity) async {
        let delivered = await deliverUnread(me: me)
        finishCatchUp(delivered: delivered, me: me.user)
    }

    /// A roster push (RFC 6121 §2.1.6) to this session.
    func pushRoster(_ item: XMLElement) {
        guard let me else { return }
        send(RosterHandler.push(item, to: me.full))
    }
}
