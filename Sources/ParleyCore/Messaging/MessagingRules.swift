/// Every messaging limit, named once; the server fills it from its configuration.
public struct MessagingRules: Sendable, Equatable {
    /// Text, client id, name, description and greeting lengths in characters and bytes
    /// (shared with `AccountRules.text`; the server sets both from one configuration).
    public var text = TextLimits()
    /// Messages in one history page (and the default when a client asks for none).
    public var maxHistoryPage = 100
    public var defaultHistoryPage = 50
    /// Messages in one page of the archive (`ConversationService.archive`, XMPP's XEP-0313),
    /// and the page a query that names no size gets.
    public var maxArchivePage = 100
    /// Messages a room newcomer receives.
    public var roomRecentMessages = 50
    /// Missed messages per conversation in one `sync`; more are marked truncated.
    public var syncMessagesPerConversation = 100
    /// Bytes one `sync` answer or history page may take at most (estimated pessimistically,
    /// see `EncodedSizeBound`); what does not fit is left for history paging. The server sets
    /// it below its per-connection queue bound, which a single answer must never exceed.
    public var maxAnswerBytes = 1 << 20
    /// Cards in one discover page.
    public var maxDeckPage = 50
    /// Members in one member-list page.
    public var maxMemberPage = 200
    /// Entries in one page of friends, friend requests, blocked users or room occupants
    /// (each page is also kept within `maxAnswerBytes`).
    public var maxListPage = 200
    /// Conversations whose member lists are kept in memory for sending (see `MembershipCache`).
    public var membershipCacheConversations = 100_000
    /// How long after sending its sender may edit a text message, ms (`--edit-window`).
    public var editWindow: Int64 = 48 * 3_600_000
    /// How long after sending its sender may recall a message, ms (`--recall-window`); a
    /// group's owner may recall any member's message at any time.
    public var recallWindow: Int64 = 2 * 60_000
    /// Different emoji one user may put on one message (`--max-reactions-per-user`).
    public var maxReactionsPerUser = 8
    /// Pinned messages per conversation (`--max-pins`).
    public var maxPins = 10
    /// Characters of a reply's excerpt of the quoted text (`--reply-excerpt`).
    public var replyExcerptCharacters = 100
    /// Members one message may mention (`--max-mentions`).
    public var maxMentions = 50
    /// How long a `typing.start` shows without a refresh before the server ends it (`--typing-timeout`).
    public var typingTimeout: Duration = .seconds(6)
    /// `typing.start` and `typing.stop` one user may send per minute, over all conversations (`--max-typing-per-minute`).
    public var typingPerMinute = 120
    /// Hits in one `message.search` page (`--max-search-page`), and the page a search that
    /// names no size gets.
    public var maxSearchPage = 50
    public var defaultSearchPage = 20
    /// Messages a search of short words only (under three characters, which no trigram index
    /// can find) looks at per page (`--search-scan-limit`).
    public var searchScanLimit = 2000
    /// Rows a search reads newest first, checking each, before it turns to the trigram index
    /// (`--search-walk-rows`; `MessageSearchQuery.walkRows`).
    public var searchWalkRows = MessageSearchQuery.defaultWalkRows
    /// Characters of the excerpt around a search hit (`--search-excerpt`).
    public var searchExcerptCharacters = 80
    /// Characters of a search query (`--max-search-query`), and the words in it.
    public var maxSearchQueryCharacters = 200
    public var maxSearchTerms = 8
    /// `user.search` calls per user per minute (`--user-searches-per-minute`), profiles in
    /// one answer (`--max-user-search-page`) and characters of the prefix.
    public var userSearchesPerMinute = 30
    public var maxUserSearchPage = 20
    public var maxUserSearchPrefix = 64

    /// Admins one group may have besides its owner (`--max-group-admins`).
    public var maxGroupAdmins = 10
    /// Usable invite links one group may have at once (`--max-group-invites`).
    public var maxGroupInvites = 50
    /// Pending join requests one group keeps (`--max-join-requests`).
    public var maxJoinRequests = 500
    /// Characters of a ban's reason (`--max-ban-reason`).
    public var maxBanReasonCharacters = 200

    public init() {}
}
