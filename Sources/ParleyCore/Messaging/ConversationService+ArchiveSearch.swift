public import ParleyProtocol

extension ConversationService {
    /// The archive filtered by full text (XMPP's MAM `withtext`): `message.search` with its
    /// rules and authorization (`MessageSearchService`), over the archive's scope: one
    /// conversation the user may read, or all their 1:1 conversations. Hits come newest first
    /// from the search and are paged backwards by message id (`before`); the page is returned
    /// oldest first, like any archive page. `start` and `end` narrow the hits by time.
    /// `count` is the page's size (a search does not count every match).
    func archiveSearch(for user: UserID, _ query: ArchiveQuery, text: String, limit: Int) async throws(ProtocolError) -> ArchivePage {
        if query.after != nil {
            throw ProtocolError(.invalidField, "a text search pages backwards only (before)", field: "after")
        }
        var conversation: ConversationID?
        var direct: Set<ConversationID>?
        switch query.scope {
        case .conversation(let id):
            conversation = id
        case .direct:
            direct = Set(try await context.gateway.read { reader in try reader.conversationIDs(of: user, kind: .user) })
        }
        var hits: [Message] = []
        var cursor = query.before
        var complete = false
        // Each search page checks a bounded stretch; a few stretches fill a page (bounded too).
        for _ in 0..<Self.archiveSearchStretches where hits.count < limit {
            let page = try await search.search(for: user, MessageSearchParameters(query: text, conversationId: conversation,
                                                                                  before: cursor, limit: limit - hits.count))
            for hit in page.hits {
                let message = hit.message
                if let direct, !direct.contains(message.conversationId) { continue }
                if let start = query.start, message.createdAt < start { continue }
                if let end = query.end, message.createdAt > end { continue }
                hits.append(message)
            }
            guard let next = page.nextBefore else {
                complete = true
                break
            }
            cursor = next
        }
        if limit == 0 { hits = [] }
        let messages = Array(hits.prefix(limit).reversed())
        let whole = complete && hits.count <= limit
        return try await context.gateway.read { reader in
            var peers: [ConversationID: UserID] = [:]
            for id in Set(messages.map(\.conversationId)) {
                if let found = try reader.conversation(id: id), found.kind == .user, let a = found.userA, let b = found.userB {
                    peers[id] = a == user ? b : a
                }
            }
            let people = Set(messages.compactMap(\.sender)).union(peers.values)
            let users = Dictionary(try MessagingContext.profiles(Array(people), reader: reader).map { ($0.id, $0) },
                                   uniquingKeysWith: { first, _ in first })
            return ArchivePage(messages: messages, count: messages.count, complete: whole,
                               peers: peers, users: users)
        }
    }

    /// Search pages one archive page may take at most (each bounded by the search's own limits).
    static let archiveSearchStretches = 4
}
