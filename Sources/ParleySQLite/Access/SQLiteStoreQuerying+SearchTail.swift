import ParleyCore
import ParleyProtocol
import ParleySQL

// The part of a search the full-text index cannot answer yet (schema version 25).
extension SQLiteStoreQuerying {
    /// The matches of `query` among the messages above the index's watermark (sent, not yet
    /// indexed: `SearchIndexer`), newest first, at most `query.limit`, and the query for the
    /// rest of the page: the limit less those, below the watermark's next id. The tail's ids
    /// are higher than every indexed message's, so its matches come first. Each is checked
    /// with `SearchText`, the rule that has the final say on every store's candidates; the
    /// read is bounded by the tail's size, which `SearchIndexSettings.batchRows` bounds. A
    /// query without terms reads `messages` itself and needs none of this.
    func unindexedMatches(_ query: MessageSearchQuery) throws -> (matches: [Message], rest: MessageSearchQuery) {
        guard !query.terms.isEmpty else { return ([], query) }
        let text = SearchText(words: query.terms)
        let sql = query.conversation == nil ? SQLiteSearchTailSQL.everywhere : SQLiteSearchTailSQL.inConversation
        let scope = query.conversation?.rawValue ?? query.searcher.rawValue
        return try StoreError.mapping("searchMessages") {
            guard let watermark = try connection.queryFirst(SearchIndexer.watermarkSQL, row: { try $0.int64(0) }) else {
                throw StoreError.failure("search index: the table search_index_watermark has lost its row")
            }
            // ?1 is the indexed statements' match, which the tail has no use for. Only ids and
            // texts are read: most of the tail does not match.
            let tail = try connection.query(sql, nil as String?, query.beforeID ?? Int64.max, query.sender?.rawValue, scope,
                                            query.searcher.rawValue, nil as Int64?, SQLiteSearchSQL.literals(query.literals),
                                            row: { (id: try $0.int64(0), text: try $0.string(1)) })
            var matches: [Message] = []
            for candidate in tail where text.matches(candidate.text) {
                guard let message = try connection.queryFirst(SQLiteSearchTailSQL.message, candidate.id, row: { try Message(row: $0) })
                else { continue }
                matches.append(message)
                if matches.count == query.limit { break }
            }
            var rest = query
            rest.limit -= matches.count
            rest.beforeID = min(query.beforeID ?? Int64.max, watermark + 1)
            return (matches, rest)
        }
    }
}

/// The tail's statements: the ids and texts of the messages above the watermark (a range of
/// `messages`' rowid), newest first, with the indexed statements' filters and parameters
/// (`SQLiteSearchSQL`); then each match whole.
enum SQLiteSearchTailSQL {
    private static let columns = Message.columns.map { "m." + $0 }.joined(separator: ", ")
    private static let tail = """
        m.id > (SELECT indexed_through FROM search_index_watermark) AND m.id < ?2
          AND m.kind <> 'system' AND m.text IS NOT NULL
        """

    static let everywhere = """
        SELECT m.id, m.text FROM messages AS m NOT INDEXED
        WHERE \(tail) AND \(SQLiteSearchSQL.member) AND \(SQLiteSearchSQL.filters)
        ORDER BY m.id DESC
        """
    static let inConversation = """
        SELECT m.id, m.text FROM messages AS m NOT INDEXED
        WHERE \(tail) AND m.conversation_id = ?4 AND \(SQLiteSearchSQL.filters)
        ORDER BY m.id DESC
        """
    /// A matching message, whole.
    static let message = "SELECT \(columns) FROM messages AS m WHERE m.id = ?1"
}
