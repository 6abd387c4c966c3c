// Search (docs/protocol.md, "Search").
extension Op {
    /// Full-text search over the messages the caller may read, newest first, with excerpts.
    public enum MessageSearch: APIOperation {
        public typealias Parameters = MessageSearchParameters
        public typealias Result = MessageSearchResult
        public static let name = "message.search"
    }
}

extension Op {
    /// People by username or nickname prefix, findable ones only, rate-limited per user.
    public enum UserSearch: APIOperation {
        public typealias Parameters = UserSearchParameters
        public typealias Result = UserList
        public static let name = "user.search"
    }

    /// Reads or sets whether `user.search` finds the caller (on by default).
    public enum UserFindable: APIOperation {
        public typealias Parameters = FindableSetting
        public typealias Result = FindableSetting
        public static let name = "user.findable"
    }
}
