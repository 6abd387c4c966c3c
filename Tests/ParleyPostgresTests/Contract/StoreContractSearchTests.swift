import ParleyCore
import ParleyProtocol
import TestSupport
import Testing

/// Full-text search: substrings of English, Chinese and mixed text without regard to case,
/// newest first, only in the searcher's conversations, never recalled, hidden or system
/// messages, and the index kept by every change of a message's text.
@Suite struct StoreContractSearchTests {
    /// ann, bob and cy; a group of ann and bob; a 1:1 conversation of bob and cy that ann is
    /// not in.
    private func setUp(_ store: any Store) async throws -> (ann: UserID, bob: UserID, cy: UserID, group: ConversationID, other: ConversationID) {
        let people = try await insertUsers(store, ["ann", "bob", "cy"])
        let (ann, bob, cy) = (people[0].id, people[1].id, people[2].id)
        let group = try await store.write { writer in
            let group = try writer.insertConversation(NewConversation(kind: .group, name: "g", ownerID: ann, createdAt: 1))
            for user in [ann, bob] {
                try writer.saveMember(StoredMember(conversationID: group.id, userID: user, role: user == ann ? .owner : .member,
                                                   joinedAt: 1, readSeq: 0))
            }
            return group.id
        }
        let other = try await insertDirectConversation(store, bob, cy)
        try await store.write { writer in
            for user in [bob, cy] {
                try writer.saveMember(StoredMember(conversationID: other.id, userID: user, role: .member, joinedAt: 1, readSeq: 0))
            }
        }
        return (ann, bob, cy, group, other.id)
    }

    @discardableResult
    private func send(_ store: any Store, _ conversation: ConversationID, _ sender: UserID, _ text: String,
                      kind: MessageKind = .text) async throws -> Message {
        try await store.write { writer in
            try writer.appendMessage(NewMessage(conversationID: conversation, sender: kind == .system ? nil : sender,
                                                clientID: kind == .system ? nil : "c-\(text.hashValue)-\(sender.rawValue)", kind: kind,
                                                text: text, createdAt: 10))
        }
    }

    private func search(_ store: any Store, _ user: UserID, _ terms: [String], in conversation: ConversationID? = nil,
                        from sender: UserID? = nil, before: Int64? = nil, limit: Int = 50) async throws -> [String] {
        let query = MessageSearchQuery(searcher: user, conversation: conversation, sender: sender, terms: terms, beforeID: before,
                                       limit: limit)
        return try await store.read { reader in try reader.searchMessages(query) }.map { $0.text ?? "" }
    }

    @Test(arguments: StoreBackend.available) func englishChineseAndMixedTextAreFoundAsSubstringsNewestFirst(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let (ann, bob, _, group, _) = try await setUp(store)
            for text in ["Hello World", "我们明天去北京吧", "Swift并发编程很有趣", "say HELLO again", "北京烤鸭 is great", "nothing here"] {
                try await send(store, group, text.contains("HELLO") ? bob : ann, text)
            }
            #expect(try await search(store, ann, ["hello"]) == ["say HELLO again", "Hello World"])
            #expect(try await search(store, ann, ["去北京"]) == ["我们明天去北京吧"])
            #expect(try await search(store, ann, ["并发编"]) == ["Swift并发编程很有趣"])
            #expect(try await search(store, ann, ["swift并发"]) == ["Swift并发编程很有趣"])
            #expect(try await search(store, ann, ["北京烤", "great"]) == ["北京烤鸭 is great"])
            #expect(try await search(store, ann, ["北京烤", "hello"]).isEmpty, "every term must occur")
            #expect(try await search(store, ann, ["hello"], from: bob) == ["say HELLO again"])
            #expect(try await search(store, ann, ["xyz"]).isEmpty)
            // Quotes and pattern characters are text, not syntax.
            try await send(store, group, ann, #"50%_off "deal" \o/"#)
            #expect(try await search(store, ann, [#""deal""#]) == [#"50%_off "deal" \o/"#])
            #expect(try await search(store, ann, ["%_o"]) == [#"50%_off "deal" \o/"#])
            #expect(try await search(store, ann, ["0%o"]).isEmpty)
        }
    }

    @Test(arguments: StoreBackend.available) func onlyTheSearchersConversationsAndNeverHiddenOrSystemMessages(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let (ann, bob, cy, group, other) = try await setUp(store)
            let mine = try await send(store, group, ann, "secret plan alpha")
            try await send(store, other, cy, "secret plan beta")
            try await send(store, group, ann, "secret plan notice", kind: .system)
            #expect(try await search(store, ann, ["secret"]) == ["secret plan alpha"])
            #expect(try await search(store, cy, ["secret"]) == ["secret plan beta"])
            #expect(try await search(store, bob, ["secret"]) == ["secret plan beta", "secret plan alpha"])
            #expect(try await search(store, bob, ["secret"], in: group) == ["secret plan alpha"])
            #expect(try await search(store, bob, [], in: other) == ["secret plan beta"])
            #expect(try await search(store, ann, []) == ["secret plan alpha"], "no terms: newest messages with text")
            try await store.write { writer in try writer.hideMessage(Int64(mine.id) ?? 0, in: group, for: bob, at: 20) }
            #expect(try await search(store, bob, ["secret"]) == ["secret plan beta"])
            #expect(try await search(store, bob, [], in: group).isEmpty)
            #expect(try await search(store, ann, ["secret"]) == ["secret plan alpha"], "hidden for bob alone")
        }
    }

    @Test(arguments: StoreBackend.available) func pagesGoOnBelowTheCursor(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let (ann, _, _, group, _) = try await setUp(store)
            var ids: [Int64] = []
            for index in 1...7 { ids.append(Int64(try await send(store, group, ann, "page item \(index)").id) ?? 0) }
            #expect(try await search(store, ann, ["item"], limit: 3) == ["page item 7", "page item 6", "page item 5"])
            #expect(try await search(store, ann, ["item"], before: ids[4], limit: 3) == ["page item 4", "page item 3", "page item 2"])
            #expect(try await search(store, ann, [], in: group, before: ids[1], limit: 3) == ["page item 1"])
            #expect(try await search(store, ann, [], before: ids[2], limit: 3) == ["page item 2", "page item 1"])
        }
    }

    @Test(arguments: StoreBackend.available) func editsRecallsAndDeletesKeepTheIndex(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let (ann, _, _, group, _) = try await setUp(store)
            let first = try await send(store, group, ann, "original wording 原来的话")
            let second = try await send(store, group, ann, "to be recalled 撤回的话")
            var edited = first
            edited.text = "rewritten wording 新的话语"
            edited.editedAt = 30
            try await store.write { [edited] writer in try writer.replaceMessage(edited) }
            #expect(try await search(store, ann, ["original"]).isEmpty)
            #expect(try await search(store, ann, ["原来的"]).isEmpty)
            #expect(try await search(store, ann, ["新的话"]) == ["rewritten wording 新的话语"])
            // Reactions rewrite the row with the same text: still found once.
            var reacted = edited
            reacted.reactions = [Reaction(emoji: "👍", users: [ann])]
            try await store.write { [reacted] writer in try writer.replaceMessage(reacted) }
            #expect(try await search(store, ann, ["wording"]) == ["rewritten wording 新的话语"])
            var recalled = second
            recalled.text = nil
            recalled.recalled = RecallMark(by: ann, at: 40)
            try await store.write { [recalled] writer in try writer.replaceMessage(recalled) }
            #expect(try await search(store, ann, ["recalled"]).isEmpty)
            #expect(try await search(store, ann, ["撤回的"]).isEmpty)
            #expect(try await search(store, ann, []) == ["rewritten wording 新的话语"])
        }
    }
}
