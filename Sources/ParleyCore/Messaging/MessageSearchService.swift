public import ParleyProtocol

/// `message.search` (docs/protocol.md, "Search"): the messages a user may read whose text
/// holds every word of a query, newest first, with excerpts.
///
/// Words of three characters or more go to the store's index (`MessageSearchReader`); the
/// final say is `SearchText`'s, the same for both stores. A query of short words only ("猫",
/// "ok") cannot use a trigram index, so it looks at the newest `searchScanLimit` messages
/// before the cursor and hands on a cursor for the next stretch, so each page checks a
/// bounded number of texts (docs/operations.md says what the store reads to find them).
public final class MessageSearchService: Sendable {
    let context: MessagingContext

    public init(context: MessagingContext) {
        self.context = context
    }

    /// A page of hits for `user`. Searching a named conversation needs the right to read it
    /// (`ConversationAccess.readable`: `not_found` or `not_member` otherwise); without one,
    /// only the user's own 1:1 and group conversations are searched.
    public func search(for user: UserID, _ parameters: MessageSearchParameters) async throws(ProtocolError) -> MessageSearchResult {
        let rules = context.rules
        let query = parameters.query
        guard query.count <= rules.maxSearchQueryCharacters, query.utf8.count <= rules.maxSearchQueryCharacters * 4 else {
            throw ProtocolError(.invalidField, "a query has at most \(rules.maxSearchQueryCharacters) characters", field: "query")
        }
        let text = SearchText(query: query)
        guard !text.terms.isEmpty else { throw ProtocolError(.invalidField, "the query is empty", field: "query") }
        guard text.terms.count <= rules.maxSearchTerms else {
            throw ProtocolError(.invalidField, "a query has at most \(rules.maxSearchTerms) words", field: "query")
        }
        var beforeID: Int64?
        if let before = parameters.before {
            guard let id = Int64(before), id > 0 else { throw ProtocolError(.invalidField, "not a message id", field: "before") }
            beforeID = id
        }
        let limit = min(max(parameters.limit ?? rules.defaultSearchPage, 1), rules.maxSearchPage)
        let store = MessageSearchQuery(for: text, searcher: user, conversation: parameters.conversationId, sender: parameters.from,
                                       beforeID: beforeID, page: limit, scanLimit: rules.searchScanLimit, walkRows: rules.searchWalkRows)
        let rooms = context.rooms
        let candidates = try await context.gateway.read { reader in
            if let conversation = parameters.conversationId {
                _ = try ConversationAccess.readable(conversation, by: user, reader: reader, rooms: rooms)
            }
            // Members who joined a group that hides earlier history find nothing from before.
            var starts: [ConversationID: Int64] = [:]
            // A room's admin has a `members` row (their role) but reads the room only while in it.
            let everywhere = parameters.conversationId == nil
            return try reader.searchMessages(store).filter { message in
                if starts[message.conversationId] == nil {
                    if try everywhere && reader.conversation(id: message.conversationId)?.kind == .room {
                        starts[message.conversationId] = Int64.max
                    } else {
                        starts[message.conversationId] = try reader.member(of: message.conversationId, user: user)?.historyFrom ?? 0
                    }
                }
                return message.seq > starts[message.conversationId, default: 0]
            }
        }
        var hits: [SearchHit] = []
        var nextBefore: String?
        for message in candidates where message.recalled == nil {
            guard let body = message.text, text.matches(body) else { continue }
            hits.append(SearchHit(message: message, snippet: text.snippet(of: body, length: rules.searchExcerptCharacters)))
            if hits.count == limit {
                nextBefore = message.id
                break
            }
        }
        if nextBefore == nil, candidates.count == store.limit, let last = candidates.last { nextBefore = last.id }
        return MessageSearchResult(hits: hits, nextBefore: nextBefore)
    }
}
