import CoreTestSupport
import Foundation
import ParleyCore
import ParleyProtocol
import Testing

/// `message.search` decided by the core over a real SQLite store: who may search what (an
/// authorization table), recalled messages, short words, paging and excerpts.
@Suite struct MessageSearchServiceTests {
    private func send(_ core: CoreFixture, _ user: UserID, _ conversation: ConversationID, _ text: String) async throws -> Message {
        try await core.conversations.send(from: user, SendParameters(conversationId: conversation, clientId: UUID().uuidString,
                                                                     kind: .text, text: text), connection: nil).message
    }

    private func texts(_ core: CoreFixture, _ user: UserID, _ query: String, in conversation: ConversationID? = nil,
                       limit: Int? = nil) async throws -> [String] {
        try await core.conversations.search.search(for: user, MessageSearchParameters(query: query, conversationId: conversation,
                                                                                      limit: limit)).hits.compactMap(\.message.text)
    }

    private func code(_ body: () async throws -> Void) async -> ErrorCode? {
        do {
            try await body()
            return nil
        } catch let error as ProtocolError {
            return error.code
        } catch {
            return nil
        }
    }

    /// Every searcher against every conversation: a hit only where they may read, and a named
    /// conversation that is not theirs refused without its messages.
    @Test func nobodyFindsAConversationTheyMayNotRead() async throws {
        let core = try CoreFixture()
        let amy = try await core.user("amy"), ben = try await core.user("ben"), cat = try await core.user("cat")
        let pair = try await core.befriend(amy, ben)
        let group = try await core.groups.create(by: amy, CreateParameters(name: "club")).id
        _ = try await core.groups.join(by: cat, ConversationReference(conversationId: group))
        let room = try await core.rooms.create(by: ben, CreateParameters(name: "lobby")).room.id
        _ = try await send(core, amy, pair, "needle in the pair")
        _ = try await send(core, cat, group, "needle in the group")
        _ = try await send(core, ben, room, "needle in the room")
        let places: [(String, ConversationID)] = [("pair", pair), ("group", group), ("room", room)]
        let readable: [UserID: Set<String>] = [amy: ["pair", "group"], ben: ["pair", "room"], cat: ["group"]]
        for (user, allowed) in readable {
            let everywhere = Set(try await texts(core, user, "needle"))
            // Rooms are searched by name only, while one is in them.
            #expect(everywhere == Set(allowed.subtracting(["room"]).map { "needle in the \($0)" }), "user \(user)")
            for (name, id) in places {
                if allowed.contains(name) {
                    #expect(try await texts(core, user, "needle", in: id) == ["needle in the \(name)"])
                    #expect(try await texts(core, user, "ne", in: id) == ["needle in the \(name)"], "short words too")
                } else {
                    #expect(await code { _ = try await texts(core, user, "needle", in: id) } == .notMember, "user \(user) in \(name)")
                    #expect(await code { _ = try await texts(core, user, "ne", in: id) } == .notMember)
                }
            }
        }
        #expect(await code { _ = try await texts(core, amy, "needle", in: ConversationID(9999)) } == .notFound)
    }

    @Test func aRecalledMessageNeverMatches() async throws {
        let core = try CoreFixture()
        let amy = try await core.user("amy"), ben = try await core.user("ben")
        let pair = try await core.befriend(amy, ben)
        let sent = try await send(core, amy, pair, "密码是 tiger42")
        #expect(try await texts(core, ben, "tiger42") == ["密码是 tiger42"])
        #expect(try await texts(core, ben, "密码") == ["密码是 tiger42"])
        _ = try await core.conversations.actions.recall(by: amy, MessageActionParameters(conversationId: pair, messageId: sent.id,
                                                                                        clientId: "r1"), connection: nil)
        for query in ["tiger42", "密码", "是", "tiger", "ti"] {
            #expect(try await texts(core, ben, query).isEmpty, "\(query)")
            #expect(try await texts(core, amy, query, in: pair).isEmpty, "\(query)")
        }
    }

    @Test func shortWordsChineseAndMixedQueriesWithExcerpts() async throws {
        let core = try CoreFixture()
        let amy = try await core.user("amy"), ben = try await core.user("ben")
        let pair = try await core.befriend(amy, ben)
        for text in ["我们明天去北京吧", "Swift并发编程很有趣", "Let's meet in Beijing 北京 tomorrow", "unrelated"] {
            _ = try await send(core, amy, pair, text)
        }
        #expect(try await texts(core, ben, "北京") == ["Let's meet in Beijing 北京 tomorrow", "我们明天去北京吧"])
        #expect(try await texts(core, ben, "beijing 北京") == ["Let's meet in Beijing 北京 tomorrow"])
        #expect(try await texts(core, ben, "SWIFT 并发") == ["Swift并发编程很有趣"])
        #expect(try await texts(core, ben, "猫").isEmpty)
        let result = try await core.conversations.search.search(for: ben, MessageSearchParameters(query: "beijing"))
        #expect(result.hits.first?.snippet == [SnippetPart("Let's meet in ", match: false), SnippetPart("Beijing", match: true),
                                               SnippetPart(" 北京 tomorrow", match: false)])
    }

    /// A long word with a short Chinese one: the store requires both, so the page holds the
    /// hits however many newer messages hold the long word alone (the stretch of candidates,
    /// three here, would have been those and the page empty).
    @Test func aLongWordWithShortChineseWordsPagesByTheLimit() async throws {
        var rules = MessagingRules()
        rules.searchScanLimit = 3
        let core = try CoreFixture(rules: rules)
        let amy = try await core.user("amy"), ben = try await core.user("ben")
        let pair = try await core.befriend(amy, ben)
        for text in ["meeting 北京 one", "meeting 北京 two", "meeting 北京 three"] { _ = try await send(core, amy, pair, text) }
        for index in 1...5 { _ = try await send(core, amy, pair, "meeting elsewhere \(index)") }
        let first = try await core.conversations.search.search(for: ben, MessageSearchParameters(query: "meeting 北京", limit: 2))
        #expect(first.hits.compactMap(\.message.text) == ["meeting 北京 three", "meeting 北京 two"])
        let second = try await core.conversations.search.search(for: ben, MessageSearchParameters(query: "MEETING 北京", before: first.nextBefore,
                                                                                                  limit: 2))
        #expect(second.hits.compactMap(\.message.text) == ["meeting 北京 one"] && second.nextBefore == nil)
        // A short word that is not Han keeps the stretch: the first page reads three candidates.
        let mixed = try await core.conversations.search.search(for: ben, MessageSearchParameters(query: "meeting ne", limit: 2))
        #expect(mixed.hits.isEmpty && mixed.nextBefore != nil)
    }

    @Test func longTextIsCutAroundTheMatchAndPagesFollowTheCursor() async throws {
        var rules = MessagingRules()
        rules.searchExcerptCharacters = 20
        rules.searchScanLimit = 3
        let core = try CoreFixture(rules: rules)
        let amy = try await core.user("amy"), ben = try await core.user("ben")
        let pair = try await core.befriend(amy, ben)
        let long = String(repeating: "a", count: 50) + " target " + String(repeating: "b", count: 50)
        _ = try await send(core, amy, pair, long)
        for index in 1...5 { _ = try await send(core, amy, pair, "filler \(index)") }
        let hit = try await core.conversations.search.search(for: ben, MessageSearchParameters(query: "target")).hits.first
        #expect(hit?.snippet == [SnippetPart("…aaaa ", match: false), SnippetPart("target", match: true),
                                 SnippetPart(" bbbbbbbb…", match: false)])
        // A short word reads three messages per page: the first page finds nothing yet and
        // says where to go on; the third finds nothing older and ends.
        var before: String?
        var found: [String] = []
        var pages = 0
        repeat {
            let page = try await core.conversations.search.search(for: ben, MessageSearchParameters(query: "ta", before: before))
            found += page.hits.compactMap(\.message.text)
            before = page.nextBefore
            pages += 1
        } while before != nil && pages < 10
        #expect(found == [long] && pages == 3)
        // Indexed words page by the limit.
        let first = try await core.conversations.search.search(for: ben, MessageSearchParameters(query: "filler", limit: 2))
        #expect(first.hits.compactMap(\.message.text) == ["filler 5", "filler 4"])
        let second = try await core.conversations.search.search(for: ben, MessageSearchParameters(query: "filler", before: first.nextBefore,
                                                                                                  limit: 2))
        #expect(second.hits.compactMap(\.message.text) == ["filler 3", "filler 2"])
    }

    @Test func badQueriesAreRefusedWithTheirField() async throws {
        let core = try CoreFixture()
        let amy = try await core.user("amy")
        let search = { (parameters: MessageSearchParameters) in _ = try await core.conversations.search.search(for: amy, parameters) }
        #expect(await code { try await search(MessageSearchParameters(query: "  \n ")) } == .invalidField)
        #expect(await code { try await search(MessageSearchParameters(query: String(repeating: "x", count: 201))) } == .invalidField)
        #expect(await code { try await search(MessageSearchParameters(query: "a b c d e f g h i")) } == .invalidField)
        #expect(await code { try await search(MessageSearchParameters(query: "ok", before: "x1")) } == .invalidField)
        #expect(await code { try await search(MessageSearchParameters(query: "ok")) } == nil)
    }
}
