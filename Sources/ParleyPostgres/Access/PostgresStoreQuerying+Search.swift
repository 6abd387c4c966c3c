import ParleyCore
import ParleyProtocol
import ParleyStoreSupport

// `MessageSearchReader` (schema version 14).
extension PostgresStoreQuerying {
    func searchMessages(_ query: MessageSearchQuery) throws -> [Message] {
        guard query.limit > 0 else { return [] }
        let inConversation = query.conversation != nil
        return try MessageSearchWalk.page(query, walk: { rows in try walk(query, rows: rows) }, rest: { belowID, limit in
            try search(PostgresSearchSQL.rest(terms: query.terms.count, literals: query.literals.count, inConversation: inConversation), query,
                       beforeID: belowID ?? query.beforeID, limit: limit)
        })
    }

    /// A page statement's rows: $1…$5 as `PostgresSearchSQL` says, then `extra`, then the
    /// patterns, then the literals.
    private func search(_ sql: String, _ query: MessageSearchQuery, beforeID: Int64?, limit: Int,
                        extra: [PostgresValue] = []) throws -> [Message] {
        let scope = query.conversation?.rawValue ?? query.searcher.rawValue
        var parameters: [PostgresValue] = [(beforeID ?? Int64.max).postgresValue, query.sender?.rawValue.postgresValue ?? .null,
                                           scope.postgresValue, query.searcher.rawValue.postgresValue, limit.postgresValue]
        parameters += extra
        parameters += query.terms.map { .text(PostgresSearchSQL.pattern($0)) }
        parameters += query.literals.map { .text($0) }
        return try StoreError.mapping("searchMessages") {
            // Planned for each search's own patterns (see `PostgresConnection.query`).
            try connection.query(sql, parameters, planEachCall: true).map { try Message(row: $0) }
        }
    }

    /// The first step of `MessageSearchWalk`; when it leaves the page short, how many rows it
    /// read and the lowest id among them.
    private func walk(_ query: MessageSearchQuery, rows: Int) throws -> (hits: [Message], end: MessageSearchWalk.End) {
        let inConversation = query.conversation != nil
        let hits = try search(PostgresSearchSQL.walk(terms: query.terms.count, literals: query.literals.count,
                                                     inConversation: inConversation), query,
                              beforeID: query.beforeID, limit: query.limit, extra: [rows.postgresValue])
        guard hits.count < query.limit else { return (hits, .complete) }
        let sql = PostgresSearchSQL.window(inConversation: inConversation)
        let before = query.beforeID ?? Int64.max
        let read: (PostgresRow) throws -> (Int64, Int64?) = { (try $0.int64(0), try $0.optionalInt64(1)) }
        let window = try query.conversation.map { try queryFirst("searchMessages", sql, before, rows, $0.rawValue, row: read) }
            ?? queryFirst("searchMessages", sql, before, rows, row: read)
        guard let window, window.0 >= rows, let lowest = window.1 else { return (hits, .complete) }
        return (hits, .stopped(atID: lowest))
    }
}

/// The search statements for a number of terms, each an `ILIKE` the `pg_trgm` index
/// `messages_search` answers, and of literals, each a `strpos` on the rows the index or the
/// walk gives. Parameters: $1 ids below, $2 sender or NULL, $3 the conversation (or the
/// searcher, for all of theirs), $4 the searcher, $5 the limit; the walk's row budget next
/// ($6), then the patterns, then the literals.
///
/// Left to itself the planner picks between the GIN index (every match, then a sort) and
/// the primary key newest first with `ILIKE` on each row, and guesses wrong both ways
/// (docs/benchmarks.md, section m). So the shape is fixed here: the walk reads at most $6
/// rows newest first (a subquery with its own `LIMIT`, whose order the page keeps without
/// a sort), and the rest after it comes from the index alone (a `MATERIALIZED` CTE
/// without `LIMIT`, which the planner cannot turn into a walk of the primary key). Each is
/// planned for its own values, never as a generic prepared plan: one such plan, made blind
/// to the pattern and the searcher's conversations, probed the index once per conversation.
enum PostgresSearchSQL {
    static func walk(terms: Int, literals: Int, inConversation: Bool) -> String {
        let rows = inConversation
            ? "SELECT * FROM messages AS m WHERE m.conversation_id = $3 AND \(belowCursor) ORDER BY m.seq DESC LIMIT $6"
            : "SELECT * FROM messages AS m WHERE m.id < $1 ORDER BY m.id DESC LIMIT $6"
        return """
            SELECT \(columns) FROM (\(rows)) AS m
            WHERE \(conditions(terms: terms, literals: literals, firstPattern: 7, inConversation: inConversation))
            ORDER BY m.\(inConversation ? "seq" : "id") DESC LIMIT $5
            """
    }

    /// How many rows the walk read and the lowest id among them: $1 ids below, $2 its
    /// budget, $3 the conversation.
    static func window(inConversation: Bool) -> String {
        let rows = inConversation
            ? "SELECT m.id FROM messages AS m WHERE m.conversation_id = $3 AND \(belowCursor) ORDER BY m.seq DESC LIMIT $2"
            : "SELECT m.id FROM messages AS m WHERE m.id < $1 ORDER BY m.id DESC LIMIT $2"
        return "SELECT count(*), min(id) FROM (\(rows)) AS w"
    }

    static func rest(terms: Int, literals: Int, inConversation: Bool) -> String {
        let matching = """
            SELECT \(columns) FROM messages AS m
            WHERE m.id < $1 AND \(conditions(terms: terms, literals: literals, firstPattern: 6, inConversation: inConversation))
            """
        // Without words there is no index to force: the newest rows in scope are the page.
        guard terms > 0 else { return matching + " ORDER BY m.id DESC LIMIT $5" }
        return "WITH hits AS MATERIALIZED (\(matching)) SELECT * FROM hits ORDER BY id DESC LIMIT $5"
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
    /// The cursor's place in conversation $3: its seq when it is a message there.
    private static let belowCursor = """
        m.seq < coalesce((SELECT c.seq FROM messages AS c WHERE c.id = $1 AND c.conversation_id = $3), 9223372036854775807) \
        AND m.id < $1
        """

    private static func conditions(terms: Int, literals: Int, firstPattern: Int, inConversation: Bool) -> String {
        let scope = inConversation
            ? "m.conversation_id = $3"
            : "m.conversation_id IN (SELECT conversation_id FROM members WHERE user_id = $3)"
        let patterns = (0..<terms).map { " AND m.text ILIKE $\($0 + firstPattern)" }.joined()
            + (0..<literals).map { " AND strpos(m.text, $\($0 + firstPattern + terms)) > 0" }.joined()
        return """
            m.kind <> 'system' AND m.text IS NOT NULL AND \(scope)\(patterns)
              AND ($2::bigint IS NULL OR m.sender_id = $2::bigint)
              AND NOT EXISTS (SELECT 1 FROM hidden_messages AS h
                              WHERE h.user_id = $4 AND h.conversation_id = m.conversation_id AND h.message_id = m.id)
            """
    }
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
