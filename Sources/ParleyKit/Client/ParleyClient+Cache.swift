public import ParleyProtocol

// What the cache holds, for opening an app before the network answers. Every read is local
// and never waits for the connection.
extension ParleyClient {
    /// The sessions list as last known, newest activity first.
    public func cachedConversations() throws(ParleyError) -> [ConversationSummary] {
        try store.conversations()
    }

    /// One row of the sessions list.
    public func cachedConversation(_ id: ConversationID) throws(ParleyError) -> ConversationSummary? {
        try store.conversation(id)
    }

    /// Up to `limit` cached messages before `seq` (or the newest), oldest first, without gaps.
    public func cachedMessages(in conversation: ConversationID, before seq: Int64? = nil, limit: Int = 50) throws(ParleyError) -> [Message] {
        try store.messages(in: conversation, before: seq, limit: limit)
    }

    /// Friends as last known, oldest friendship first.
    public func cachedFriends() throws(ParleyError) -> [Friend] {
        try store.friends()
    }

    /// Friend requests waiting for this user (`incoming`) or sent by them.
    public func cachedFriendRequests(incoming: Bool = true) throws(ParleyError) -> [FriendRequest] {
        try store.friendRequests(incoming: incoming)
    }

    /// The rooms the user is in (and re-enters after every reconnect).
    public func cachedRooms() throws(ParleyError) -> [RoomInfo] {
        try store.rooms()
    }

    /// A group's information, when it was fetched before.
    public func cachedGroup(_ id: ConversationID) throws(ParleyError) -> GroupInfo? {
        try store.group(id)
    }

    /// A user's profile as last seen.
    public func cachedProfile(_ id: UserID) throws(ParleyError) -> UserProfile? {
        try store.profile(id)
    }

    /// A user's profile: from the cache, else from the server when online (then cached).
    /// Nil when neither has it; callers show `DisplayName`'s `ID: <id>` meanwhile.
    public func profile(of id: UserID) async -> UserProfile? {
        if let cached = try? store.profile(id) { return cached }
        guard state == .online, let generation = link?.generation else { return nil }
        guard case .success(let profile) = await request(Op.UserGet.self, UserLookup(id: id), on: generation) else {
            return nil
        }
        try? store.setProfiles([profile])
        return profile
    }

    /// Whether a friend is online, as last reported.
    public func isOnline(_ id: UserID) -> Bool {
        presence[id] ?? false
    }
}
