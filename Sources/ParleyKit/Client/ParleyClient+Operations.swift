public import ParleyProtocol

// Every WebSocket operation of docs/protocol.md, typed. Each waits for the connection (up to
// `offlineWait`) and fails with `ParleyError.server` carrying the protocol's error code.
// Results that belong in the cache are stored before they are returned.
extension ParleyClient {
    // MARK: Account

    /// `ping`: the server's clock.
    public func ping() async throws(ParleyError) -> PingReply {
        try await call(Op.Ping.self, EmptyPayload())
    }

    /// `me.get`: the signed-in account, fresh from the server.
    public func fetchAccount() async throws(ParleyError) -> Account {
        let account: Account = try await call(Op.MeGet.self, EmptyPayload())
        adoptAccount(account)
        return account
    }

    /// `me.update`: changes the profile (only the fields given; `.clear` empties one).
    /// Errors: `invalid_field`, `invalid_username` (with `field`), `username_taken`,
    /// `username_already_set`.
    @discardableResult
    public func updateProfile(_ update: ProfileUpdate) async throws(ParleyError) -> Account {
        let account: Account = try await call(Op.MeUpdate.self, update)
        adoptAccount(account)
        return account
    }

    /// `user.get` by id. Error: `not_found`.
    public func user(id: UserID) async throws(ParleyError) -> UserProfile {
        let profile: UserProfile = try await call(Op.UserGet.self, UserLookup(id: id))
        try? store.setProfiles([profile])
        return profile
    }

    /// `user.get` by username (any letter case). Error: `not_found`.
    public func user(username: String) async throws(ParleyError) -> UserProfile {
        let profile: UserProfile = try await call(Op.UserGet.self, UserLookup(username: username))
        try? store.setProfiles([profile])
        return profile
    }

    // MARK: Friends and blocks

    /// `friend.request` by username: the pending request, or the friendship when the other
    /// person had asked already. Errors: `not_found`, `blocked`, `already_friends`, `invalid_field`.
    public func requestFriend(username: String, greeting: String? = nil) async throws(ParleyError) -> FriendRequestOutcome {
        try await requestFriend(FriendRequestParameters(username: username, greeting: greeting))
    }

    /// `friend.request` by id.
    public func requestFriend(userId: UserID, greeting: String? = nil) async throws(ParleyError) -> FriendRequestOutcome {
        try await requestFriend(FriendRequestParameters(userId: userId, greeting: greeting))
    }

    private func requestFriend(_ parameters: FriendRequestParameters) async throws(ParleyError) -> FriendRequestOutcome {
        let outcome: FriendRequestOutcome = try await call(Op.FriendRequest.self, parameters)
        if let request = outcome.request { try? store.setFriendRequest(request, incoming: false) }
        if let friend = outcome.friend { befriended(friend) }
        return outcome
    }

    /// `friend.accept`. Errors: `not_found`, `blocked`.
    @discardableResult
    public func acceptFriendRequest(_ requestId: String) async throws(ParleyError) -> Friend {
        let friend: Friend = try await call(Op.FriendAccept.self, RequestReference(requestId: requestId))
        try? store.removeFriendRequests(id: requestId)
        befriended(friend)
        return friend
    }

    /// `friend.decline` (the sender is not told). Error: `not_found`.
    public func declineFriendRequest(_ requestId: String) async throws(ParleyError) {
        let _: EmptyPayload = try await call(Op.FriendDecline.self, RequestReference(requestId: requestId))
        try? store.removeFriendRequests(id: requestId)
    }

    /// `friend.list`, oldest friendship first (also refreshes the cache).
    public func friends() async throws(ParleyError) -> [Friend] {
        let friends = try await allPages { cursor throws(ParleyError) in
            let page = try await self.call(Op.FriendList.self, PageParameters(cursor: cursor))
            return (page.friends, page.nextCursor)
        }
        try? store.transaction { try store.replaceFriends(friends) }
        for friend in friends { presence[friend.user.id] = friend.online }
        return friends
    }

    /// `friend.requests`: incoming and outgoing (also refreshes the cache).
    public func friendRequests() async throws(ParleyError) -> FriendRequestList {
        var list = FriendRequestList(incoming: [], outgoing: [])
        for direction in [FriendRequestDirection.incoming, .outgoing] {
            var cursor: String?
            repeat {
                let page: FriendRequestList = try await call(Op.FriendRequests.self, FriendRequestsParameters(direction: direction, cursor: cursor))
                list.incoming += page.incoming
                list.outgoing += page.outgoing
                cursor = direction == .incoming ? page.nextIncomingCursor : page.nextOutgoingCursor
            } while cursor != nil
        }
        try? store.transaction {
            try store.replaceFriendRequests(list.incoming, incoming: true)
            try store.replaceFriendRequests(list.outgoing, incoming: false)
        }
        return list
    }

    /// `friend.remove`: the 1:1 history stays; new messages are refused. Error: `not_found`.
    public func removeFriend(_ userId: UserID) async throws(ParleyError) {
        let _: EmptyPayload = try await call(Op.FriendRemove.self, UserReference(userId: userId))
        try? store.removeFriend(userId)
        emit(.friendRemoved(userId))
    }

    /// `block.add`: neither can message or ask the other any more. Error: `not_found`.
    public func block(_ userId: UserID) async throws(ParleyError) {
        let _: EmptyPayload = try await call(Op.BlockAdd.self, UserReference(userId: userId))
        try? store.removeFriendRequests(involving: userId)
    }

    /// `block.remove`.
    public func unblock(_ userId: UserID) async throws(ParleyError) {
        let _: EmptyPayload = try await call(Op.BlockRemove.self, UserReference(userId: userId))
    }

    /// `block.list`.
    public func blockedUsers() async throws(ParleyError) -> [UserProfile] {
        try await allPages { cursor throws(ParleyError) in
            let page = try await self.call(Op.BlockList.self, PageParameters(cursor: cursor))
            return (page.users, page.nextCursor)
        }
    }

    // MARK: Discover

    /// `discover.deck`: people to swipe (≤ 50 per page, 20 by default).
    public func discoverDeck(cursor: String? = nil, limit: Int? = nil) async throws(ParleyError) -> DiscoverDeck {
        let deck: DiscoverDeck = try await call(Op.DiscoverDeck.self, PageParameters(cursor: cursor, limit: limit))
        try? store.setProfiles(deck.cards)
        return deck
    }

    /// `discover.like`: `matched` with the new friend when they liked you too.
    /// Errors: `not_found`, `blocked`, `already_friends`.
    public func like(_ userId: UserID) async throws(ParleyError) -> LikeOutcome {
        let outcome: LikeOutcome = try await call(Op.DiscoverLike.self, UserReference(userId: userId))
        if let friend = outcome.friend { befriended(friend) }
        return outcome
    }

    /// `discover.pass`.
    public func pass(_ userId: UserID) async throws(ParleyError) {
        let _: EmptyPayload = try await call(Op.DiscoverPass.self, UserReference(userId: userId))
    }

    /// `discover.undo`: the last swiped card, back in the deck (nil when there was none).
    /// Error: `already_friends` (that like made a match).
    public func undoSwipe() async throws(ParleyError) -> UserProfile? {
        let outcome: UndoOutcome = try await call(Op.DiscoverUndo.self, EmptyPayload())
        return outcome.card
    }

    // MARK: Groups

    /// `group.create`: you are the owner. Errors: `invalid_name`, `name_taken`, `invalid_field`.
    public func createGroup(name: String, description: String? = nil, avatar: String? = nil) async throws(ParleyError) -> GroupInfo {
        changedGroup(try await call(Op.GroupCreate.self, CreateParameters(name: name, description: description, avatar: avatar)))
    }

    /// `group.join` by name (any letter case); joining twice is harmless. Error: `not_found`.
    public func joinGroup(name: String) async throws(ParleyError) -> GroupInfo {
        changedGroup(try await call(Op.GroupJoin.self, NameReference(name: name)))
    }

    /// `group.leave`: an owner who leaves hands the group on. Error: `not_member`.
    public func leaveGroup(_ conversation: ConversationID) async throws(ParleyError) {
        let _: EmptyPayload = try await call(Op.GroupLeave.self, ConversationReference(conversationId: conversation))
        try? store.removeGroup(conversation)
        emit(.conversationsChanged)
    }

    /// `group.get`. Errors: `not_found`, `not_member`.
    public func group(_ conversation: ConversationID) async throws(ParleyError) -> GroupInfo {
        let info: GroupInfo = try await call(Op.GroupGet.self, ConversationReference(conversationId: conversation))
        try? store.setGroup(info)
        return info
    }

    /// `group.members`, a page at a time (≤ 200). Error: `not_member`.
    public func groupMembers(_ conversation: ConversationID, cursor: String? = nil, limit: Int? = nil) async throws(ParleyError) -> GroupMemberPage {
        let page: GroupMemberPage = try await call(Op.GroupMembers.self, GroupMembersParameters(conversationId: conversation, cursor: cursor, limit: limit))
        try? store.setProfiles(page.members.map(\.user))
        return page
    }

    /// `group.update`: any member may; everyone sees an `info_changed` notice.
    /// Errors: `not_member`, `invalid_name`, `name_taken`.
    public func updateGroup(_ update: GroupUpdate) async throws(ParleyError) -> GroupInfo {
        changedGroup(try await call(Op.GroupUpdate.self, update))
    }

    /// `group.remove`: the owner removes a member. Errors: `not_owner`, `not_found`.
    public func removeMember(_ userId: UserID, from conversation: ConversationID) async throws(ParleyError) {
        let _: EmptyPayload = try await call(Op.GroupRemove.self, MemberReference(conversationId: conversation, userId: userId))
    }

    /// `group.transfer`: the owner hands the group to a member. Errors: `not_owner`, `not_found`.
    public func transferGroup(_ conversation: ConversationID, to userId: UserID) async throws(ParleyError) -> GroupInfo {
        changedGroup(try await call(Op.GroupTransfer.self, MemberReference(conversationId: conversation, userId: userId)))
    }

    private func changedGroup(_ info: GroupInfo) -> GroupInfo {
        try? store.setGroup(info)
        scheduleConversationRefresh()
        return info
    }

    // MARK: Rooms

    /// `room.create`: you are in it. Errors: `invalid_name`, `name_taken`.
    public func createRoom(name: String, description: String? = nil, avatar: String? = nil) async throws(ParleyError) -> RoomEntry {
        enteredRoom(try await call(Op.RoomCreate.self, CreateParameters(name: name, description: description, avatar: avatar)))
    }

    /// `room.enter` by name: the room and its last 50 messages. The client enters it again
    /// after every reconnect until `leaveRoom`. Error: `not_found`.
    public func enterRoom(name: String) async throws(ParleyError) -> RoomEntry {
        enteredRoom(try await call(Op.RoomEnter.self, NameReference(name: name)))
    }

    /// `room.leave`. Error: `not_member`.
    public func leaveRoom(_ conversation: ConversationID) async throws(ParleyError) {
        let _: EmptyPayload = try await call(Op.RoomLeave.self, ConversationReference(conversationId: conversation))
        try? store.removeRoom(conversation)
        emit(.conversationsChanged)
    }

    /// `room.occupants`. Error: `not_member`.
    public func roomOccupants(_ conversation: ConversationID) async throws(ParleyError) -> [UserProfile] {
        let users = try await allPages { cursor throws(ParleyError) in
            let page = try await self.call(Op.RoomOccupants.self, OccupantsParameters(conversationId: conversation, cursor: cursor))
            return (page.users, page.nextCursor)
        }
        try? store.setProfiles(users)
        return users
    }

    /// `room.update`: anyone in the room renames it or changes its description or avatar;
    /// everyone in it gets an `info_changed` notice. Errors: `not_member`, `invalid_name`,
    /// `name_taken`, `invalid_field`.
    public func updateRoom(_ update: GroupUpdate) async throws(ParleyError) -> RoomInfo {
        let room = try await call(Op.RoomUpdate.self, update)
        try? store.setRoom(room, lastMessage: nil)
        emit(.conversationsChanged)
        return room
    }

    /// `room.find`: a room's public information by name, without entering. Error: `not_found`.
    public func findRoom(named name: String) async throws(ParleyError) -> RoomInfo {
        try await call(Op.RoomFind.self, RoomLookup(name: name))
    }

    /// `room.find`: a room's public information by id (a room link), without entering.
    /// Error: `not_found`.
    public func findRoom(_ conversation: ConversationID) async throws(ParleyError) -> RoomInfo {
        try await call(Op.RoomFind.self, RoomLookup(conversationId: conversation))
    }

    private func enteredRoom(_ entry: RoomEntry) -> RoomEntry {
        try? store.setRoom(entry.room, lastMessage: entry.messages.last)
        ingest(entry.messages)
        emit(.conversationsChanged)
        return entry
    }

    // MARK: Messages and the sessions list

    /// `message.history`: the page before `seq` (or the newest), oldest first. Offline, the
    /// cache answers (its contiguous part). Messages older than the cache's newest are stored
    /// but not reported as `.messageNew` (the caller has them); newer ones are reported.
    public func history(in conversation: ConversationID, before seq: Int64? = nil, limit: Int = 50) async throws(ParleyError) -> MessagePage {
        guard state == .online else {
            let cached = try store.messages(in: conversation, before: seq, limit: limit)
            return MessagePage(messages: cached, hasMore: (cached.first?.seq ?? seq ?? 1) > 1)
        }
        // With the action events: the cache keeps the sequence whole (they are not shown).
        let page: MessagePage = try await call(Op.MessageHistory.self, HistoryParameters(conversationId: conversation, before: seq,
                                                                                         limit: limit, events: true))
        // Older messages are the caller's; any newer than the cache held are news for every
        // listener (the page can overtake a live event), so those are reported as usual.
        let known = (try? store.lastSeq(of: conversation)) ?? 0
        ingest(page.messages.filter { $0.seq <= known }, report: false)
        ingest(page.messages.filter { $0.seq > known })
        return page
    }

    /// `conversation.find`: the 1:1 conversation with `user` (friends now or once), without
    /// sending anything. Error: `not_found`.
    public func conversation(with user: UserID) async throws(ParleyError) -> ConversationID {
        try await call(Op.ConversationFind.self, UserReference(userId: user)).conversationId
    }

    /// `conversation.list`: the sessions list from the server (also refreshes the cache).
    public func conversations() async throws(ParleyError) -> ConversationList {
        let list: ConversationList = try await call(Op.ConversationList.self, EmptyPayload())
        try? store.transaction { try store.replaceConversations(list.conversations.filter { $0.kind != .room }, includingRooms: false) }
        return list
    }

    /// `conversation.read`: everything up to `seq` is read (the marker never moves back).
    @discardableResult
    public func markRead(_ conversation: ConversationID, upTo seq: Int64) async throws(ParleyError) -> ReadState {
        let read: ReadState = try await call(Op.ConversationRead.self, ReadParameters(conversationId: conversation, seq: seq))
        applyRead(read)
        return read
    }

    /// `sync` by hand (the client does it after every connect): what was missed since the
    /// cache's last seqs. New messages are reported as `.messageNew`.
    public func sync() async throws(ParleyError) -> SyncResult {
        let since = Dictionary(uniqueKeysWithValues: try store.lastSeqs().map { ($0.key.description, $0.value) })
        let result: SyncResult = try await call(Op.Sync.self, SyncParameters(since: since))
        try? store.transaction { try store.replaceConversations(result.conversations, includingRooms: false) }
        ingest(result.messages)
        applyUpdated(result.updated ?? [])
        emit(.conversationsChanged)
        return result
    }
}

extension ParleyClient {
    /// The entries of every page of a paged list (`nextCursor` until none): lists are paged by
    /// count and bytes on the server (docs/protocol.md).
    func allPages<Item>(_ page: (String?) async throws(ParleyError) -> (items: [Item], next: String?)) async throws(ParleyError) -> [Item] {
        var items: [Item] = []
        var cursor: String?
        repeat {
            let next = try await page(cursor)
            items += next.items
            cursor = next.next
        } while cursor != nil
        return items
    }
}
