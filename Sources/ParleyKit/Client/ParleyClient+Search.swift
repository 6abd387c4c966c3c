public import ParleyProtocol

// Search (docs/protocol.md, "Search"), typed. Answers come from the server: the local cache
// holds only what this device has seen, while search covers the whole history.
extension ParleyClient {
    /// `message.search`: messages whose text holds every word of `query`, newest first, in all
    /// of the user's conversations or in `conversation`; give a page's `nextBefore` as
    /// `before` for the next. Errors: `invalid_field`, `not_found`, `not_member`.
    public func searchMessages(_ query: String, in conversation: ConversationID? = nil, from sender: UserID? = nil,
                               before: String? = nil, limit: Int? = nil) async throws(ParleyError) -> MessageSearchResult {
        try await call(Op.MessageSearch.self, MessageSearchParameters(query: query, conversationId: conversation, from: sender,
                                                                      before: before, limit: limit))
    }

    /// `user.search`: people whose username or nickname starts with `prefix`. Errors:
    /// `invalid_field`, `rate_limited`.
    public func searchUsers(prefix: String, limit: Int? = nil) async throws(ParleyError) -> [UserProfile] {
        try await call(Op.UserSearch.self, UserSearchParameters(prefix: prefix, limit: limit)).users
    }

    /// `user.findable`: sets whether `searchUsers` finds this user (nil only reads it); the
    /// setting now.
    @discardableResult
    public func setFindable(_ findable: Bool?) async throws(ParleyError) -> Bool {
        try await call(Op.UserFindable.self, FindableSetting(findable: findable)).findable ?? true
    }
}
