import Foundation
import ParleyProtocol

// Server events: stored in the cache first, then passed on, so a view that reloads from the
// cache when it hears of a change sees it.
extension ParleyClient {
    func handle(_ event: ServerEvent) {
        switch event {
        case .messageNew(let message):
            receiveLive(message)
        case .conversationRead(let read):
            applyRead(read)
        case .friendRequest(let request):
            try? store.setFriendRequest(request, incoming: request.to.id == me?.profile.id)
            emit(.friendRequest(request))
        case .friendAdded(let friend):
            befriended(friend)
        case .friendRemoved(let removed):
            try? store.removeFriend(removed.userId)
            presence[removed.userId] = nil
            resourcesByUser[removed.userId] = nil
            emit(.friendRemoved(removed.userId))
        case .presence(let update):
            applyPresence(update)
        case .meUpdated(let account):
            adoptAccount(account)
        case .messageUpdated(let update):
            applyUpdate(update)
        case .messageHidden(let reference):
            applyHidden(reference)
        case .typing(let notice):
            applyTyping(notice)
        case .conversationReceipt(let receipt):
            applyReceipt(receipt)
        case .conversationMuted(let state):
            applyMute(state)
        case .groupRequestDecided(let decision):
            // An accepted request adds the group to the sessions list.
            if decision.state == "accepted" { scheduleConversationRefresh() }
            emit(.groupRequestDecided(decision))
        case .groupInvited(let invitation):
            emit(.groupInvited(invitation))
        case .roomKicked(let kick):
            // Put out of the room: it leaves the cache, so a reconnect does not enter it again.
            try? store.removeRoom(kick.conversationId)
            emit(.conversationsChanged)
            emit(.roomKicked(kick))
        case .groupDisbanded(let reference):
            // The group is gone for everyone: it leaves the cache like a group one left.
            try? store.removeGroup(reference.conversationId)
            emit(.conversationsChanged)
        case .resourcePresence(let resource):
            applyResource(resource)
        }
    }

    /// Stores the signed-in account and reports a change.
    func adoptAccount(_ account: Account) {
        try? store.setAccount(account)
        let changed = me != nil && me != account
        me = account
        if changed { emit(.meUpdated(account)) }
    }

    func befriended(_ friend: Friend) {
        try? store.setFriend(friend)
        try? store.removeFriendRequests(involving: friend.user.id)
        presence[friend.user.id] = friend.online
        emit(.friendAdded(friend))
        // The pair's 1:1 conversation is new to the sessions list.
        scheduleConversationRefresh()
    }

    func applyPresence(_ update: Presence) {
        guard presence[update.userId] != update.online else { return }
        presence[update.userId] = update.online
        // Offline everywhere: no resource is left (a missed `available: false` included).
        if !update.online, resourcesByUser.removeValue(forKey: update.userId) != nil { emit(.resources(update.userId)) }
        if var friend = try? store.friend(update.userId) {
            friend.online = update.online
            try? store.setFriend(friend)
        }
        emit(.presence(update))
    }

    func applyRead(_ read: ReadState) {
        if var summary = try? store.conversation(read.conversationId) {
            summary.readSeq = max(summary.readSeq, read.readSeq)
            summary.unread = read.unread
            if read.unread == 0 { summary.mentions = nil }
            try? store.setConversation(summary)
        }
        emit(.conversationRead(read))
    }

    /// Stores messages not seen before and reports each of those once, in (conversation,
    /// seq) order. Own messages carrying an outbox client id take their entry out of the
    /// outbox: the server has stored them.
    func ingest(_ messages: [Message], report: Bool = true) {
        guard !messages.isEmpty else { return }
        let mine = me?.profile.id
        let ordered = messages.sorted { ($0.conversationId, $0.seq) < ($1.conversationId, $1.seq) }
        var fresh: [Message] = []
        var acknowledged: [Message] = []
        var unknownConversation = false
        do {
            try store.transaction {
                for message in ordered {
                    if try store.insertMessage(message, me: mine) { fresh.append(message) }
                    if message.sender == mine, let clientId = message.clientId, try store.removeFromOutbox(clientId) {
                        acknowledged.append(message)
                    }
                }
                unknownConversation = try Set(fresh.map(\.conversationId)).contains { try store.conversation($0) == nil }
            }
        } catch {
            return
        }
        if report { for message in fresh { emit(.messageNew(message)) } }
        if !acknowledged.isEmpty {
            for message in acknowledged { acknowledge(message) }
            emit(.outboxChanged)
        }
        if unknownConversation { scheduleConversationRefresh() }
    }

    /// A live message. Messages are reported in seq order per conversation: one that skips
    /// seqs (the protocol's gap rule) waits, with any that follow it, until the missing ones
    /// are fetched; while `sync` runs after a reconnect, live messages wait for its answer.
    func receiveLive(_ message: Message) {
        let conversation = message.conversationId
        if catchingUp != nil || heldBack[conversation] != nil {
            heldBack[conversation, default: []].append(message)
            return
        }
        guard let known = try? store.lastSeq(of: conversation), known > 0, message.seq > known + 1,
              let generation = link?.generation else {
            ingest([message])
            return
        }
        heldBack[conversation] = [message]
        let missing = Int(min(100, message.seq - known - 1))
        let parameters = HistoryParameters(conversationId: conversation, before: message.seq, limit: missing, events: true)
        Task {
            let page = await self.request(Op.MessageHistory.self, parameters, on: generation)
            // On failure the held messages go out anyway, late rather than never; the next
            // sync brings what is still missing.
            self.releaseHeldBack(conversation, with: (try? page.get().messages) ?? [])
        }
    }

    /// Reports messages that waited for a gap to be filled (or for `sync`), in order.
    func releaseHeldBack(_ conversation: ConversationID, with fetched: [Message]) {
        let held = heldBack.removeValue(forKey: conversation) ?? []
        ingest(fetched + held)
    }

    /// Refreshes the sessions list from the server soon (once, however many ask).
    func scheduleConversationRefresh() {
        if refreshScheduled {
            refreshAgain = true
            return
        }
        guard let generation = link?.generation else { return }
        refreshScheduled = true
        Task {
            let list = await self.request(Op.ConversationList.self, EmptyPayload(), on: generation)
            self.finishConversationRefresh(list)
        }
    }

    private func finishConversationRefresh(_ list: Result<ConversationList, ParleyError>) {
        refreshScheduled = false
        defer {
            if refreshAgain {
                refreshAgain = false
                scheduleConversationRefresh()
            }
        }
        guard case .success(let list) = list else { return }
        // Rooms are kept from `room.enter`: the server lists a room only once re-entered.
        try? store.transaction {
            try store.replaceConversations(list.conversations.filter { $0.kind != .room }, includingRooms: false)
            // The list was read on the server a moment ago; messages that arrived since then
            // are newer than its rows, so the newest stored message wins.
            for row in list.conversations where row.kind != .room {
                guard var summary = try store.conversation(row.id),
                      let newest = try store.messages(in: row.id, before: nil, limit: 1).last,
                      newest.seq > summary.lastSeq else { continue }
                // The server counted up to its `lastSeq`; what came after counts here.
                let later = try store.messages(in: row.id, before: nil, limit: Int(min(newest.seq - summary.lastSeq, 500)))
                    .filter { $0.seq > summary.lastSeq }
                summary.lastSeq = newest.seq
                summary.lastMessage = newest
                summary.lastActivityAt = max(summary.lastActivityAt, newest.createdAt)
                if newest.sender == me?.profile.id { summary.readSeq = max(summary.readSeq, newest.seq) }
                summary.unread = summary.readSeq >= summary.lastSeq ? 0
                    : summary.unread + Int64(later.filter { $0.seq > summary.readSeq && $0.countsAsUnread(for: me?.profile.id) }.count)
                try store.setConversation(summary)
            }
        }
        emit(.conversationsChanged)
    }
}
