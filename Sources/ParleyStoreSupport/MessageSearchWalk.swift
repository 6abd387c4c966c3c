package import ParleyCore
package import ParleyProtocol

/// The two steps in which the SQL stores answer a search page (docs/operations.md, "Search").
///
/// First a walk: the newest `MessageSearchQuery.walkRows` rows of the searched scope below the
/// cursor, read in page order and checked one by one, ending as soon as the page is full. A
/// common word fills its page within a few rows that way, where an index of trigrams would
/// hand out its matches in every conversation (or all of them, to be sorted). Only when the
/// walk reads its last row with the page still short does the rest come from the index, below
/// the lowest id the walk read. Both steps give rows newest first and the second starts where
/// the first stopped, so the page is the one either step alone would give.
package enum MessageSearchWalk {
    /// How a walk ended.
    package enum End: Equatable, Sendable {
        /// It read every row in scope below the cursor: nothing is left for the index.
        case complete
        /// It read all the rows it was allowed, the last (lowest) of them with this id.
        case stopped(atID: Int64)
    }

    /// The page for `query`: `walk(rows)` reads at most `rows` rows and returns its hits
    /// (newest first, at most `query.limit`) and how it ended; `rest(belowID, limit)` asks
    /// the index for up to `limit` more with ids below `belowID` (nil: below the cursor).
    package static func page(_ query: MessageSearchQuery, walk: (_ rows: Int) throws -> (hits: [Message], end: End),
                             rest: (_ belowID: Int64?, _ limit: Int) throws -> [Message]) throws -> [Message] {
        guard query.walkRows > 0 else { return try rest(nil, query.limit) }
        let walked = try walk(query.walkRows)
        guard walked.hits.count < query.limit, case .stopped(let lowest) = walked.end else {
            return Array(walked.hits.prefix(query.limit))
        }
        return walked.hits + (try rest(lowest, query.limit - walked.hits.count))
    }
}
