// Search (docs/protocol.md, "Search").
extension Op {
    /// Full-text search over the messages the caller may read, newest first, with excerpts.
    public enum MessageSearch: APIOperation {
        public typealias Parameters = MessageSearchParameters
        public typealias Result = MessageSearchResult
        public static let name = "message.search"
    }
}
