import ParleyCore
import ParleyProtocol
import TestSupport
import Testing

/// A search page is the same however many rows the store walks newest first before it turns
/// to its index (`MessageSearchQuery.walkRows`, 0 for the index at once): every query shape
/// (words or none, literals or none, one conversation or all), paged three at a time, gives
/// exactly the matching messages newest first, none missed, repeated or out of order.
@Suite struct StoreContractSearchWalkTests {
    /// What the store holds, to compute each answer without it.
    private struct Sent {
        var id: Int64
        var conversation: ConversationID
        var sender: UserID?
        var text: String?
    }

    /// ann and bob in two groups, bob and cy in a third that ann is not in; messages spread
    /// over the three in turn, system notices and a recalled message among them, and one of
    /// the first group's hidden for ann.
    private func fill(_ store: any Store) async throws -> (ann: UserID, bob: UserID, groups: [ConversationID], sent: [Sent], hidden: Int64) {
        let people = try await insertUsers(store, ["ann", "bob", "cy"])
        let (ann, bob, cy) = (people[0].id, people[1].id, people[2].id)
        let groups = try await store.write { writer in
            try [[ann, bob], [ann, bob], [bob, cy]].enumerated().map { index, users in
                let group = try writer.insertConversation(NewConversation(kind: .group, name: "g\(index)", ownerID: users[0], createdAt: 1))
                for user in users {
                    try writer.saveMember(StoredMember(conversationID: group.id, userID: user, role: user == users[0] ? .owner : .member,
                                                       joinedAt: 1, readSeq: 0))
                }
                return group.id
            }
        }
        let texts = ["ok common word", "你好 common 世界", "rare zebra", "common ok 你好", "plain text", "Common OK"]
        var sent: [Sent] = []
        for index in 0..<36 {
            let conversation = groups[index % 3]
            let sender = conversation == groups[2] ? (index % 2 == 0 ? bob : cy) : (index % 2 == 0 ? ann : bob)
            let system = index % 7 == 3
            let text = texts[index % texts.count]
            let message = try await store.write { writer in
                try writer.appendMessage(NewMessage(conversationID: conversation, sender: system ? nil : sender,
                                                    clientID: system ? nil : "w\(index)", kind: system ? .system : .text,
                                                    text: text, createdAt: Int64(10 + index)))
            }
            sent.append(Sent(id: Int64(message.id) ?? 0, conversation: conversation, sender: system ? nil : sender,
                             text: system ? nil : text))
        }
        // One recalled (no text any more) and one hidden for ann, both in the first group.
        let recalledIndex = sent.firstIndex { $0.conversation == groups[0] && $0.text != nil && $0.id > sent[12].id }!
        let recalledID = sent[recalledIndex].id
        try await store.write { writer in
            guard var message = try writer.message(id: recalledID) else { return }
            message.text = nil
            message.recalled = RecallMark(by: ann, at: 90)
            try writer.replaceMessage(message)
        }
        sent[recalledIndex].text = nil
        let hidden = sent.first { $0.conversation == groups[0] && $0.text != nil && $0.id < sent[12].id }!.id
        try await store.write { writer in try writer.hideMessage(hidden, in: groups[0], for: ann, at: 95) }
        return (ann, bob, groups, sent, hidden)
    }

    /// Every page of a search, three at a time, each below the last one's lowest id.
    private func pages(_ store: any Store, _ query: MessageSearchQuery) async throws -> [Int64] {
        var found: [Int64] = []
        var query = query
        query.limit = 3
        for _ in 0..<40 {
            let page = try await store.read { [query] reader in try reader.searchMessages(query) }.map { Int64($0.id) ?? 0 }
            found += page
            guard page.count == query.limit, let last = page.last else { return found }
            query.beforeID = last
        }
        Issue.record("more pages than messages")
        return found
    }

    @Test(arguments: StoreBackend.available) func everyWalkLengthGivesTheSamePagesAsTheModel(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let (ann, bob, groups, sent, hidden) = try await fill(store)
            let shapes: [(terms: [String], literals: [String], conversation: ConversationID?, sender: UserID?)] = [
                ([], [], nil, nil), ([], [], groups[0], nil), (["common"], [], nil, nil), (["common"], [], groups[1], nil),
                (["zebra"], [], nil, nil), (["zebra"], [], groups[0], nil), (["common", "ok 你好"], [], nil, nil),
                (["ok com"], [], groups[0], nil), (["common"], [], nil, bob), ([], [], groups[1], ann), (["nowhere"], [], nil, nil),
                // Literals narrow what the index or the walk gives, in every shape.
                (["common"], ["你好"], nil, nil), (["common"], ["你好", "世界"], groups[1], nil), (["zebra"], ["你好"], nil, nil),
                ([], ["世"], nil, nil), (["com"], ["好"], nil, bob), ([], ["你好"], groups[0], nil),
            ]
            for shape in shapes {
                let expected = sent.filter { message in
                    guard let text = message.text?.lowercased(), message.id != hidden else { return false }
                    let inScope = shape.conversation.map { message.conversation == $0 } ?? (message.conversation != groups[2])
                    return inScope && (shape.sender.map { message.sender == $0 } ?? true)
                        && shape.terms.allSatisfy { text.contains($0.lowercased()) } && shape.literals.allSatisfy { text.contains($0) }
                }.map(\.id).sorted(by: >)
                for walkRows in [0, 1, 2, 5, 11, 1000] {
                    let query = MessageSearchQuery(searcher: ann, conversation: shape.conversation, sender: shape.sender,
                                                   terms: shape.terms, literals: shape.literals, limit: 3, walkRows: walkRows)
                    #expect(try await pages(store, query) == expected, "\(shape) walking \(walkRows) rows")
                }
            }
            // A cursor in the middle: the pages below it are the model's below it.
            let middle = sent[20].id
            let below = MessageSearchQuery(searcher: ann, terms: ["common"], beforeID: middle, limit: 3, walkRows: 4)
            let allCommon = try await pages(store, MessageSearchQuery(searcher: ann, terms: ["common"], limit: 3, walkRows: 0))
            #expect(try await pages(store, below) == allCommon.filter { $0 < middle })
            #expect(!allCommon.isEmpty && allCommon.contains { $0 < middle })
        }
    }
}
