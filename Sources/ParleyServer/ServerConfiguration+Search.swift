import ParleyCore
import ParleySQLite

// The limits of message search (docs/operations.md, "Limits").
extension ServerConfiguration {
    static func searchOptions() -> [Option] {
        [
            number("max-search-page", \.maxSearchPage, 1...500, "hits in one `message.search` page", exceeded: "the page is cut to this size"),
            number("search-scan-limit", \.searchScanLimit, 100...1_000_000, "messages a search of short words only (under three characters, which the trigram index cannot find) looks at per page", exceeded: "the page ends early with `nextBefore` set, to go on from there"),
            number("search-walk-rows", \.searchWalkRows, 0...1_000_000, "messages a search reads newest first, checking each, before it turns to the trigram index for the rest of its page (0: the index at once)", exceeded: "the search goes on through the index (or, for short words, the per-conversation plan), with the same hits"),
            number("search-excerpt", \.searchExcerptCharacters, 10...1000, "characters of the excerpt around a search hit", exceeded: "the excerpt is cut and starts or ends with …"),
            number("max-search-query", \.maxSearchQueryCharacters, 3...10_000, "characters of a search query", exceeded: "`message.search` is answered `invalid_field` (field `query`)"),
            number("user-searches-per-minute", \.userSearchesPerMinute, 1...10_000, "`user.search` calls one user may make per minute", exceeded: "`user.search` is answered `rate_limited` with `retryAfterSeconds`"),
            number("max-user-search-page", \.maxUserSearchPage, 1...200, "profiles in one `user.search` answer", exceeded: "the answer is cut to this size"),
            number("search-index-batch", \.searchIndexBatch, 1...1_000_000, "most messages the SQLite store adds to its full-text index in one transaction, after their sends were acknowledged; as many unindexed messages make indexing due before the next batch of writes, so it also bounds what every search reads beside the index (SQLite store only)", exceeded: "the rest waits for the next indexing transaction"),
            number("search-index-interval-ms", \.searchIndexIntervalMilliseconds, 0...3_600_000, "milliseconds a sent message may wait before the SQLite store's writer indexes it for search, between two batches of writes or waking for it when idle; search finds it meanwhile by reading it (SQLite store only)", exceeded: "the waiting messages are indexed"),
        ]
    }

    /// How the SQLite store keeps its full-text index up to date.
    var searchIndexSettings: SearchIndexSettings {
        SearchIndexSettings(batchRows: searchIndexBatch, interval: .milliseconds(searchIndexIntervalMilliseconds))
    }

    /// Copies the search limits into the core's rules.
    func applySearchRules(to rules: inout MessagingRules) {
        rules.maxSearchPage = maxSearchPage
        rules.defaultSearchPage = min(rules.defaultSearchPage, maxSearchPage)
        rules.searchScanLimit = searchScanLimit
        rules.searchWalkRows = searchWalkRows
        rules.searchExcerptCharacters = searchExcerptCharacters
        rules.maxSearchQueryCharacters = maxSearchQueryCharacters
        rules.userSearchesPerMinute = userSearchesPerMinute
        rules.maxUserSearchPage = maxUserSearchPage
    }
}
