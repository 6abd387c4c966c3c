/// Every messaging limit, named once; the server fills it from its configuration.
public struct MessagingRules: Sendable, Equatable {
    /// Characters in a text message.
    public var maxTextLength = 4000
    /// Characters in a client id.
    public var maxClientIDLength = 64
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
    /// Group and room names, in characters.
    public var nameLength: ClosedRange<Int> = 2...32
    public var maxDescriptionLength = 200
    public var maxGreetingLength = 200
    /// Cards in one discover page.
    public var maxDeckPage = 50
    /// Members in one member-list page.
    public var maxMemberPage = 200
    /// Conversations whose member lists are kept in memory for sending (see `MembershipCache`).
    public var membershipCacheConversations = 100_000

    public init() {}
}
