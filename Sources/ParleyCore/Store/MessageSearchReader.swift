public import ParleyProtocol

/// Full-text search over stored messages (part of `StoreReader`). Each store keeps an index
/// of message text: SQLite an FTS5 table with the trigram tokenizer, which new messages join
/// after their send in batches of the writer's own (messages not yet in it are read
/// directly, so answers never lag), PostgreSQL a `pg_trgm` GIN index kept in the same write
/// as the message. Either way, an edit or recall changes what matches in its own write.
public protocol MessageSearchReader {
    /// Messages with text (never system notices, never recalled ones, never those the
    /// searcher hid) that contain every one of `query.terms` as a case-insensitive
    /// substring, newest (highest id) first, at most `query.limit`.
    func searchMessages(_ query: MessageSearchQuery) throws -> [Message]
}

/// What `searchMessages` looks for.
public struct MessageSearchQuery: Sendable, Equatable {
    /// Whose search: their hidden messages are left out and, without `conversation`, only
    /// the 1:1 and group conversations they are a member of are searched.
    public var searcher: UserID
    /// The one conversation to search (its access already checked by the caller).
    public var conversation: ConversationID?
    /// Only messages of this sender.
    public var sender: UserID?
    /// Substrings that must all occur, each at least `minimumIndexedTerm` characters (the
    /// index answers nothing shorter); empty: every message with text, newest first.
    public var terms: [String]
    /// Shorter substrings that every hit must also contain, compared code point by code point
    /// (as the index compares `terms`): words of Han characters only (`SearchText.literalTerms`),
    /// which have no case and no other spelling. The store leaves out every row without them,
    /// so a query that mixes a long word with two Chinese characters gets a page of rows that
    /// hold both instead of a stretch of candidates that hold the long word.
    public var literals: [String]
    /// Only messages with a smaller id.
    public var beforeID: Int64?
    public var limit: Int
    /// Rows the store may read newest first in the searched scope (every message below the
    /// cursor, or the one conversation's), checking each, before it turns to its index for
    /// the rest of the page (`--search-walk-rows`; 0: the index at once). A common word fills
    /// its page within a few rows that way, where the index would hand out its matches in all
    /// conversations; a rare one costs this many rows more. Never changes the answer.
    public var walkRows: Int

    /// Characters (Unicode scalars) of the shortest term an index of trigrams can find.
    public static let minimumIndexedTerm = 3
    /// `walkRows` unless told otherwise (`MessagingRules.searchWalkRows`).
    public static let defaultWalkRows = 10_000

    public init(searcher: UserID, conversation: ConversationID? = nil, sender: UserID? = nil, terms: [String],
                literals: [String] = [], beforeID: Int64? = nil, limit: Int, walkRows: Int = MessageSearchQuery.defaultWalkRows) {
        self.searcher = searcher
        self.conversation = conversation
        self.sender = sender
        self.terms = terms
        self.literals = literals
        self.beforeID = beforeID
        self.limit = limit
        self.walkRows = walkRows
    }
}

extension MessageSearchQuery {
    /// What `message.search` asks the store for `text` (`MessageSearchService`): its words of
    /// three characters or more as `terms`, its short Han words as `literals` when there is
    /// such a term (required of every row, a query of short words alone would read the whole
    /// history to fill a page, so it keeps its bounded stretch), and `page` rows when that is
    /// every word — the store's answer is then final — or else a stretch of `scanLimit`
    /// candidates for `SearchText` to check.
    public init(for text: SearchText, searcher: UserID, conversation: ConversationID? = nil, sender: UserID? = nil,
                beforeID: Int64? = nil, page: Int, scanLimit: Int, walkRows: Int = MessageSearchQuery.defaultWalkRows) {
        let indexed = text.indexedTerms
        let literals = indexed.isEmpty ? [] : text.literalTerms
        let exact = indexed.count + literals.count == text.terms.count
        self.init(searcher: searcher, conversation: conversation, sender: sender, terms: indexed, literals: literals,
                  beforeID: beforeID, limit: exact ? page : scanLimit, walkRows: walkRows)
    }
}
