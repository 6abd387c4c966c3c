import ParleyCore
import ParleyProtocol
import ParleyStoreSupport

// `MessageSearchReader` (schema version 14).
extension PostgresStoreQuerying {
    func searchMessages(_ query: MessageSearchQuery) throws -> [Message] {
        guard query.limit > 0 else { return [] }
        let sql = PostgresSearchSQL.statement(terms: query.terms.count, inConversation: query.conversation != nil)
        let scope = query.conversation?.rawValue ?? query.searcher.rawValue
        var parameters: [PostgresValue] = [(query.beforeID ?? Int64.max).postgresValue, query.sender?.rawValue.postgresValue ?? .null,
                                           scope.postgresValue, query.searcher.rawValue.postgresValue, query.limit.postgresValue]
        parameters += query.terms.map { .text(PostgresSearchSQL.pattern($0)) }
        return try StoreError.mapping("searchMessages") {
            try connection.query(sql, parameters).map { try Message(row: $0) }
        }
    }
}

/// The search statement for a number of terms, each an `ILIKE` the `pg_trgm` index
/// `messages_search` answers (the planner picks between it and reading newest first by
/// id). Parameters: $1 ids below, $2 sender or NULL, $3 the conversation (or the searcher,
/// for all of theirs), $4 the searcher, $5 the limit, $6… the patterns.
enum PostgresSearchSQL {
    static func statement(terms: Int, inConversation: Bool) -> String {
        let scope = inConversation
            ? "m.conversation_id = $3"
            : "m.conversation_id IN (SELECT conversation_id FROM members WHERE user_id = $3)"
        let patterns = (0..<terms).map { " AND m.text ILIKE $\($0 + 6)" }.joined()
        return """
            SELECT \(columns) FROM messages AS m
            WHERE m.kind <> 'system' AND m.text IS NOT NULL AND m.id < $1 AND \(scope)\(patterns)
              AND ($2::bigint IS NULL OR m.sender_id = $2::bigint)
              AND NOT EXISTS (SELECT 1 FROM hidden_messages AS h
                              WHERE h.user_id = $4 AND h.conversation_id = m.conversation_id AND h.message_id = m.id)
            ORDER BY m.id DESC LIMIT $5
            """
    }

    /// `%term%` with the pattern characters of `term` taken literally (`\` is ILIKE's escape).
    static func pattern(_ term: String) -> String {
        var escaped = "%"
        for character in term {
            if character == "%" || character == "_" || character == "\\" { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped + "%"
    }

    private static let columns = Message.columns.map { "m." + $0 }.joined(separator: ", ")
}

// `UserSearchReader` (schema version 14): prefix ranges in byte order of the two `COLLATE "C"`
// indexes.
extension PostgresStoreQuerying {
    func searchUsers(prefix: String, searcher: UserID, limit: Int) throws -> [StoredUser] {
        guard limit > 0, !prefix.isEmpty else { return [] }
        return try query("searchUsers", """
            SELECT \(StoredUser.selectColumns) FROM users AS u
            WHERE (((u.username_key COLLATE "C") >= $1 AND (u.username_key COLLATE "C") < $2)
                   OR ((lower(u.nickname) COLLATE "C") >= $1 AND (lower(u.nickname) COLLATE "C") < $2))
              AND u.id <> $3
              AND NOT EXISTS (SELECT 1 FROM unfindable_users AS f WHERE f.user_id = u.id)
              AND NOT EXISTS (SELECT 1 FROM blocks AS b WHERE b.user_id = u.id AND b.target_id = $3)
            ORDER BY u.id LIMIT $4
            """, prefix, prefix + "\u{10FFFF}", searcher.rawValue, limit, row: { try StoredUser(row: $0) })
    }

    func isFindable(_ user: UserID) throws -> Bool {
        try queryFirst("isFindable", "SELECT 1 FROM unfindable_users WHERE user_id = $1", user.rawValue, row: { _ in true }) == nil
    }
}
