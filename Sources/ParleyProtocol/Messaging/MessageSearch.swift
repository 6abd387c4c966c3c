/// `message.search`: messages whose text contains every word of `query` (case-insensitive
/// substrings, so Chinese and Japanese text needs no word breaks), newest first, in every
/// 1:1 and group conversation of the caller or in the one named.
public struct MessageSearchParameters: Codable, Sendable {
    /// Words separated by white space; each must occur in the text.
    public var query: String
    /// Search this conversation only (a room's occupants may search the room).
    public var conversationId: ConversationID?
    /// Only messages sent by this user.
    public var from: UserID?
    /// A page's `nextBefore`: only messages older than this server id.
    public var before: String?
    /// Hits wanted (at most `--max-search-page`).
    public var limit: Int?

    public init(query: String, conversationId: ConversationID? = nil, from: UserID? = nil, before: String? = nil, limit: Int? = nil) {
        self.query = query
        self.conversationId = conversationId
        self.from = from
        self.before = before
        self.limit = limit
    }
}

/// One page of search hits, newest first.
public struct MessageSearchResult: Codable, Sendable, Equatable {
    public var hits: [SearchHit]
    /// Give it as `before` for the next page; absent when nothing older can match. A page
    /// may hold fewer hits than asked and still have a next one (a query with only short
    /// words looks at a bounded number of messages per page).
    public var nextBefore: String?

    public init(hits: [SearchHit], nextBefore: String?) {
        self.hits = hits
        self.nextBefore = nextBefore
    }
}

/// A message that matched, with an excerpt of its text around the first match.
public struct SearchHit: Codable, Sendable, Equatable {
    public var message: Message
    /// The excerpt in order; the parts with `match` are what the query found. An excerpt
    /// cut from a longer text starts or ends with "…".
    public var snippet: [SnippetPart]

    public init(message: Message, snippet: [SnippetPart]) {
        self.message = message
        self.snippet = snippet
    }
}

/// A piece of a search excerpt: plain text, or text the query matched (to be highlighted).
public struct SnippetPart: Codable, Sendable, Equatable {
    public var text: String
    public var match: Bool

    public init(_ text: String, match: Bool) {
        self.text = text
        self.match = match
    }
}
