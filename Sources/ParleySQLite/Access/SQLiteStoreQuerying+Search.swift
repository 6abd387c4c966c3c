import ParleyCore
import ParleyProtocol
import ParleySQL
import ParleyStoreSupport

// `MessageSearchReader` (schema version 15).
extension SQLiteStoreQuerying {
    func searchMessages(_ query: MessageSearchQuery) throws -> [Message] {
        guard query.limit > 0 else { return [] }
        // The newest messages are not in the index yet: they come first (see `unindexedMatches`).
        let unindexed = try unindexedMatches(query)
        guard unindexed.count < query.limit else { return unindexed }
        let sql = SQLiteSearchSQL.statement(indexed: !query.terms.isEmpty, inConversation: query.conversation != nil)
        let scope = query.conversation?.rawValue ?? query.searcher.rawValue
        return try unindexed + StoreError.mapping("searchMessages") {
            try connection.query(sql, SQLiteSearchSQL.match(query.terms), query.beforeID ?? Int64.max, query.sender?.rawValue,
                                 scope, query.searcher.rawValue, query.limit - unindexed.count, row: { try Message(row: $0) })
        }
    }
}

/// The search statements, named so the tests can check their plans. Four shapes: through
/// the FTS5 index or not (no word long enough for it), in one conversation or in all of the
/// searcher's. Through the index, FTS5 hands rows out newest (highest id) first and the
/// `LIMIT` stops it; without, one conversation is read newest first along its
/// `(conversation_id, seq)` index (seq grows with id within a conversation).
///
/// Parameters: ?1 the FTS5 query, ?2 ids below, ?3 sender or NULL, ?4 the conversation (or
/// the searcher, for all of theirs), ?5 the searcher, ?6 the limit.
enum SQLiteSearchSQL {
    static func statement(indexed: Bool, inConversation: Bool) -> String {
        switch (indexed, inConversation) {
        case (true, true): indexedInConversation
        case (true, false): indexedEverywhere
        case (false, true): recentInConversation
        case (false, false): recentEverywhere
        }
    }

    /// Every term as an FTS5 string (a phrase: its own trigrams in order), joined by AND.
    static func match(_ terms: [String]) -> String {
        terms.map { "\"" + $0.replacingAll("\"", with: "\"\"") + "\"" }.joined(separator: " AND ")
    }

    private static let columns = Message.columns.map { "m." + $0 }.joined(separator: ", ")
    static let filters = """
        (?3 IS NULL OR m.sender_id = ?3)
          AND NOT EXISTS (SELECT 1 FROM hidden_messages AS h
                          WHERE h.user_id = ?5 AND h.conversation_id = m.conversation_id AND h.message_id = m.id)
        """
    static let member = "m.conversation_id IN (SELECT conversation_id FROM members WHERE user_id = ?4)"

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
        WHERE ?1 = '' AND m.conversation_id = ?4
          AND m.seq < coalesce((SELECT seq FROM messages WHERE id = ?2 AND conversation_id = ?4), 9223372036854775807)
          AND m.id < ?2 AND m.kind <> 'system' AND m.text IS NOT NULL AND \(filters)
        ORDER BY m.seq DESC LIMIT ?6
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
