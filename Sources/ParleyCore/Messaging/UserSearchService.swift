public import ParleyProtocol

/// `user.search` and `user.findable` (docs/protocol.md, "Search"): people by the start of
/// their username or nickname, for adding friends. Rate-limited per user
/// (`--user-searches-per-minute`) so that nobody walks the whole directory; people who
/// turned `findable` off, and people who blocked the searcher, never appear.
public final class UserSearchService: Sendable {
    let context: MessagingContext
    private let searches: SlidingWindowLimiter

    public init(context: MessagingContext) {
        self.context = context
        searches = SlidingWindowLimiter(limit: context.rules.userSearchesPerMinute, windowSeconds: 60)
    }

    /// Up to `limit` (at most `maxUserSearchPage`) profiles, ascending id.
    public func search(for user: UserID, _ parameters: UserSearchParameters) async throws(ProtocolError) -> UserList {
        let rules = context.rules
        let prefix = String(parameters.prefix.drop(while: \.isWhitespace)).lowercased()
        guard !prefix.isEmpty else { throw ProtocolError(.invalidField, "give the start of a name", field: "prefix") }
        guard prefix.count <= rules.maxUserSearchPrefix, prefix.utf8.count <= rules.maxUserSearchPrefix * 4 else {
            throw ProtocolError(.invalidField, "a name prefix has at most \(rules.maxUserSearchPrefix) characters", field: "prefix")
        }
        if let wait = searches.attempt(String(user.rawValue), now: context.clock()) {
            throw ProtocolError(.rateLimited, "too many user searches; try again later", retryAfterSeconds: wait)
        }
        let limit = min(max(parameters.limit ?? rules.maxUserSearchPage, 1), rules.maxUserSearchPage)
        let users = try await context.gateway.read { reader in
            try reader.searchUsers(prefix: prefix, searcher: user, limit: limit)
        }
        return UserList(users: users.map(\.profile))
    }

    /// Sets the caller's findable setting when given; answers with the setting now.
    public func findable(for user: UserID, _ setting: FindableSetting) async throws(ProtocolError) -> FindableSetting {
        if let findable = setting.findable {
            try await context.gateway.write { writer in try writer.setFindable(user, findable) }
            return FindableSetting(findable: findable)
        }
        return FindableSetting(findable: try await context.gateway.read { reader in try reader.isFindable(user) })
    }
}
