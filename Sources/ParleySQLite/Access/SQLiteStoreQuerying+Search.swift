import ParleyCore
import ParleyProtocol
import ParleySQL
import ParleyStoreSupport

// `MessageSearchReader` (schema version 15).
extension SQLiteStoreQuerying {
    func searchMessages(_ query: MessageSearchQuery) throws -> [Message] {
        guard query.limit > 0 else { return [] }
        // Messages above the index's watermark are not in it yet: they come first, read
        // directly, and the rest of the page from those at or below it (`unindexedMatches`).
        let (unindexed, query) = try unindexedMatches(query)
        guard query.limit > 0 else { return unindexed }
        let indexed = !query.terms.isEmpty
        return try unindexed + StoreError.mapping("searchMessages") {
            switch (indexed, query.conversation) {
            case (true, nil):
                // FTS5 hands out matches newest first over every conversation: the `LIMIT`
                // stops it as soon as the page is full, with no walk needed.
                return try search(SQLiteSearchSQL.indexedEverywhere, query, beforeID: query.beforeID, limit: query.limit)
            case (false, .some):
                // Reading the conversation newest first already is the walk, stopped by `LIMIT`.
                return try search(SQLiteSearchSQL.recentInConversation, query, beforeID: query.beforeID, limit: query.limit)
            default:
                let rest = indexed ? SQLiteSearchSQL.indexedInConversation : SQLiteSearchSQL.recentEverywhere
                return try MessageSearchWalk.page(query, walk: { try walk(query, rows: $0) }, rest: { belowID, limit in
                    try search(rest, query, beforeID: belowID ?? query.beforeID, limit: limit)
                })
            }
        }
    }

    private func search(_ sql: String, _ query: MessageSearchQuery, beforeID: Int64?, limit: Int) throws -> [Message] {
        let scope = query.conversation?.rawValue ?? query.searcher.rawValue
        return try connection.query(sql, SQLiteSearchSQL.match(query.terms), beforeID ?? Int64.max, query.sender?.rawValue,
                                    scope, query.searcher.rawValue, limit, SQLiteSearchSQL.literals(query.literals),
                                    row: { try Message(row: $0) })
    }

    /// The first step of `MessageSearchWalk`: at most `rows` rows of the scope below the
    /// cursor, newest first, each checked here (the statement says whether the searcher may
    /// see it, `SearchText` whether it holds every term).
    private func walk(_ query: MessageSearchQuery, rows: Int) throws -> (hits: [Message], end: MessageSearchWalk.End) {
        let sql = query.conversation == nil ? SQLiteSearchSQL.walkEverywhere : SQLiteSearchSQL.walkInConversation
        let words = query.terms.isEmpty ? nil : SearchText(words: query.terms)
        let visible = Message.columns.count
        var hits: [Message] = []
        var read = 0
        var lowest = Int64.max
        try connection.cachedStatement(sql).each(bindings: [
            "", query.beforeID ?? Int64.max, query.sender?.rawValue, query.conversation?.rawValue ?? query.searcher.rawValue,
            query.searcher.rawValue, rows, SQLiteSearchSQL.literals(query.literals),
        ]) { row in
            read += 1
            lowest = try row.int64(0)
            if try row.bool(visible), words?.matches(try row.optionalString(6) ?? "") ?? true {
                hits.append(try Message(row: row))
            }
            return hits.count < query.limit
        }
        return (hits, read < rows && hits.count < query.limit ? .complete : .stopped(atID: lowest))
    }
}

/// The search statements, named so the tests can check their plans. Through the FTS5 index
/// (words of three characters or more) or not, in one conversation or in all of the
/// searcher's. Through the index, FTS5 hands rows out newest (highest id) first and the
/// `LIMIT` stops it; without, one conversation is read newest first along its
/// `(conversation_id, seq)` index (seq grows with id within a conversation). The two walks
/// (`MessageSearchWalk`'s first step) read rows in page order for the caller to check.
///
/// Parameters of the page statements: ?1 the FTS5 query, ?2 ids below, ?3 sender or NULL,
/// ?4 the conversation (or the searcher, for all of theirs), ?5 the searcher, ?6 the limit,
/// ?7 the literals every row must contain (`literals(_:)`; NULL: none).
enum SQLiteSearchSQL {
    /// Every term as an FTS5 string (a phrase: its own trigrams in order), joined by AND.
    static func match(_ terms: [String]) -> String {
        terms.map { "\"" + $0.replacingAll("\"", with: "\"\"") + "\"" }.joined(separator: " AND ")
    }

    /// `MessageSearchQuery.literals` as a JSON array of strings for `json_each`, nil when
    /// there are none.
    static func literals(_ literals: [String]) -> String? {
        guard !literals.isEmpty else { return nil }
        var json: [UInt8] = [UInt8(ascii: "[")]
        for literal in literals {
            if json.count > 1 { json.append(UInt8(ascii: ",")) }
            JSONWriter.appendString(literal, to: &json)
        }
        json.append(UInt8(ascii: "]"))
        return String(decoding: json, as: UTF8.self)
    }

    private static let columns = Message.columns.map { "m." + $0 }.joined(separator: ", ")
    /// The sender, the searcher's hidden messages and the literals (code points: `instr`).
    static let filters = """
        (?3 IS NULL OR m.sender_id = ?3)
          AND NOT EXISTS (SELECT 1 FROM hidden_messages AS h
                          WHERE h.user_id = ?5 AND h.conversation_id = m.conversation_id AND h.message_id = m.id)
          AND NOT EXISTS (SELECT 1 FROM json_each(?7) WHERE instr(m.text, value) = 0)
        """
    static let member = "m.conversation_id IN (SELECT conversation_id FROM members WHERE user_id = ?4)"
    /// The cursor's place in conversation ?4: its seq when it is a message there.
    private static let belowCursor = """
        m.seq < coalesce((SELECT seq FROM messages WHERE id = ?2 AND conversation_id = ?4), 9223372036854775807) AND m.id < ?2
        """

    static let indexedEverywhere = """
        SELECT \(columns) FROM messages_search AS s JOIN messages AS m ON m.id = s.rowid
        WHERE messages_search MATCH ?1 AND s.rowid < ?2 AND \(member) AND \(filters)
        ORDER BY s.rowid DESC LIMIT ?6
        """
    static let indexedInConversation = """
        SELECT \(columns) FROM messages_search AS s JOIN messages AS m ON m.id = s.rowid
        WHERE messages_search MATCH ?1 AND s.rowid < ?2 AND m.conversation_id = ?4 AND \(filters)
        ORDER BY s.rowid DESC LIMIT ?6
        """
    static let recentEverywhere = """
        SELECT \(columns) FROM messages AS m
        WHERE ?1 = '' AND m.id < ?2 AND m.kind <> 'system' AND m.text IS NOT NULL AND \(member) AND \(filters)
        ORDER BY m.id DESC LIMIT ?6
        """
    static let recentInConversation = """
        SELECT \(columns) FROM messages AS m
        WHERE ?1 = '' AND m.conversation_id = ?4 AND \(belowCursor) AND m.kind <> 'system' AND m.text IS NOT NULL AND \(filters)
        ORDER BY m.seq DESC LIMIT ?6
        """

    /// The walks: every row below the cursor (?2) in scope, newest first, at most ?6, with
    /// a last column saying whether the searcher (?5) may find it and it holds the literals
    /// (?7). The parameters mean what they mean above, ?1 unused (the caller checks the terms).
    private static func visible(everywhere: Bool) -> String {
        "coalesce(m.kind <> 'system' AND m.text IS NOT NULL AND \(everywhere ? member + " AND " : "")\(filters), 0)"
    }
    static let walkEverywhere = """
        SELECT \(columns), \(visible(everywhere: true)) FROM messages AS m
        WHERE m.id < ?2 ORDER BY m.id DESC LIMIT ?6
        """
    static let walkInConversation = """
        SELECT \(columns), \(visible(everywhere: false)) FROM messages AS m
        WHERE m.conversation_id = ?4 AND \(belowCursor) ORDER BY m.seq DESC LIMIT ?6
        """
}

extension String {
    /// `self` with every `target` replaced (no Foundation in this target).
    fileprivate func replacingAll(_ target: Character, with replacement: String) -> String {
        var result = ""
        for character in self { if character == target { result += replacement } else { result.append(character) } }
        return result
    }
}

// `UserSearchReader` (schema version 15): two prefix ranges, of `username_key`'s unique index
// and of `users_by_nickname`.
extension SQLiteStoreQuerying {
    func searchUsers(prefix: String, searcher: UserID, limit: Int) throws -> [StoredUser] {
        guard limit > 0, !prefix.isEmpty else { return [] }
        return try StoreError.mapping("searchUsers") {
            try connection.query("""
                SELECT \(StoredUser.selectColumns) FROM users AS u
                WHERE ((u.username_key >= ?1 AND u.username_key < ?2) OR (lower(u.nickname) >= ?1 AND lower(u.nickname) < ?2))
                  AND u.id <> ?3
                  AND NOT EXISTS (SELECT 1 FROM unfindable_users AS f WHERE f.user_id = u.id)
                  AND NOT EXISTS (SELECT 1 FROM blocks AS b WHERE b.user_id = u.id AND b.target_id = ?3)
                ORDER BY u.id LIMIT ?4
                """, prefix, prefix + "\u{10FFFF}", searcher.rawValue, limit, row: { try StoredUser(row: $0) })
        }
    }

    func isFindable(_ user: UserID) throws -> Bool {
        try StoreError.mapping("isFindable") {
            try connection.queryFirst("SELECT 1 FROM unfindable_users WHERE user_id = ?", user.rawValue, row: { _ in true }) == nil
        }
    }
}
