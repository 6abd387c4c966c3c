import Foundation
import ParleyProtocol

// Catching up after every (re)connect, before the client calls itself online.
extension ParleyClient {
    /// `sync` from the cache's last seqs, then contacts, then re-entering the rooms the user
    /// was in (the server took them out when the last connection dropped). Nil on success.
    func catchUp(on generation: Int) async -> ParleyError? {
        let since: [String: Int64]
        do {
            since = Dictionary(uniqueKeysWithValues: try store.lastSeqs().map { ($0.key.description, $0.value) })
        } catch {
            return error
        }
        // Live messages that come while `sync` runs may be newer than what it returns; they
        // wait, so that every conversation is reported in seq order.
        catchingUp = generation
        let synced = await request(Op.Sync.self, SyncParameters(since: since), on: generation)
        catchingUp = nil
        let waiting = heldBack
        heldBack.removeAll()
        guard case .success(let sync) = synced else {
            for (_, messages) in waiting { ingest(messages) }
            return synced.failure
        }
        try? store.transaction {
            try store.replaceConversations(sync.conversations, includingRooms: false)
            try store.replaceFriendRequests(sync.friendRequests, incoming: true)
        }
        ingest(sync.messages)
        applyUpdated(sync.updated ?? [])
        for message in waiting.values.joined().sorted(by: { $0.seq < $1.seq }) { receiveLive(message) }
        emit(.conversationsChanged)

        var list = FriendList(friends: [])
        var cursor: String?
        repeat {
            let contacts = await request(Op.FriendList.self, PageParameters(cursor: cursor), on: generation)
            guard case .success(let page) = contacts else { return contacts.failure }
            list.friends += page.friends
            cursor = page.nextCursor
        } while cursor != nil
        try? store.transaction { try store.replaceFriends(list.friends) }
        for friend in list.friends where presence[friend.user.id] != friend.online {
            let known = presence[friend.user.id] != nil
            presence[friend.user.id] = friend.online
            // Presence that changed while offline is news; the first sighting is not.
            if known { emit(.presence(Presence(userId: friend.user.id, online: friend.online, at: Int64(Date().timeIntervalSince1970 * 1000)))) }
        }
        var requests = FriendRequestList(incoming: [], outgoing: [])
        var complete = true
        pages: for direction in [FriendRequestDirection.incoming, .outgoing] {
            var cursor: String?
            repeat {
                let answer = await request(Op.FriendRequests.self, FriendRequestsParameters(direction: direction, cursor: cursor),
                                           on: generation)
                guard case .success(let page) = answer else {
                    complete = false
                    break pages
                }
                requests.incoming += page.incoming
                requests.outgoing += page.outgoing
                cursor = direction == .incoming ? page.nextIncomingCursor : page.nextOutgoingCursor
            } while cursor != nil
        }
        if complete {
            try? store.transaction {
                try store.replaceFriendRequests(requests.incoming, incoming: true)
                try store.replaceFriendRequests(requests.outgoing, incoming: false)
            }
        }

        for room in (try? store.rooms()) ?? [] {
            switch await request(Op.RoomEnter.self, NameReference(name: room.name), on: generation) {
            case .success(let entry):
                try? store.setRoom(entry.room, lastMessage: entry.messages.last)
                ingest(entry.messages)
            // Gone, or barred from it meanwhile: the room leaves the list, and sync goes on.
            case .failure(.server(let error)) where error.code == .notFound || error.code == .banned:
                try? store.removeRoom(room.id)
            case .failure(let error):
                return error
            }
        }
        try? store.guarded { try store.trimMessages(keep: configuration.cachedMessagesPerConversation) }
        emit(.conversationsChanged)
        return nil
    }
}

extension Result {
    /// The error, if this is a failure.
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
