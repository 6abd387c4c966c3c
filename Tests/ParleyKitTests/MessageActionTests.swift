import Foundation
import ParleyKit
import ParleyProtocol
import Testing

/// ParleyKit's message actions against a real server: typed calls, the other side's events,
/// and the dialogue view model showing each message in its current state.
@Suite("Message actions through ParleyKit", .serialized)
@MainActor
struct MessageActionTests {
    private func bubbles(_ dialogue: DialogueViewModel) -> [DialogueItem.Bubble] {
        dialogue.items.compactMap { if case .message(let bubble) = $0 { bubble } else { nil } }
    }

    private func notices(_ dialogue: DialogueViewModel) -> [String] {
        dialogue.items.compactMap { if case .notice(let notice) = $0 { notice.text } else { nil } }
    }

    @Test("edits, reactions, replies and recalls show in the other side's dialogue as current state")
    func actionsReachTheOtherDialogue() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let alice = try KitHarness.client(server)
        let bob = try KitHarness.client(server)
        let bobName = KitHarness.username("bob")
        let conversation = try await KitHarness.friends(alice, KitHarness.username("alice"), bob, bobName)
        try await bob.sendAndWait(text: "hello tehre", to: conversation)
        try await KitHarness.eventually("alice online") { alice.connectionState.isOnline }
        let dialogue = DialogueViewModel(client: alice, conversation: conversation, language: .english)
        await dialogue.open()
        try await KitHarness.eventually("bob's message") { await MainActor.run { self.bubbles(dialogue).map(\.text) == ["hello tehre"] } }
        let firstSeq = try #require(bubbles(dialogue).first).seq
        let original = try #require(dialogue.message(seq: firstSeq))

        // Bob fixes the typo; alice reacts; both reach alice's dialogue as current state.
        let edited = try await bob.edit(original, text: "hello there")
        #expect(edited.editedAt != nil && edited.text == "hello there")
        try await KitHarness.eventually("the edit arrives") {
            await MainActor.run { self.bubbles(dialogue).first?.text == "hello there" && self.bubbles(dialogue).first?.isEdited == true }
        }
        let reacted = try await alice.react(to: original, with: "👍")
        let aliceID = try #require(await alice.account?.profile.id)
        #expect(reacted.reactions == [Reaction(emoji: "👍", users: [aliceID])])
        try await KitHarness.eventually("the chip") { await MainActor.run { self.bubbles(dialogue).first?.reactions.count == 1 } }
        // The action events keep the sequence whole but are not lines of the dialogue.
        #expect(bubbles(dialogue).count == 1 && notices(dialogue).count == 1, "the friendship notice only")

        // Alice replies; the quote names bob's current text.
        let reply = try await alice.reply(to: original, text: "hi!", in: conversation)
        #expect(reply.replyTo?.excerpt == "hello there")
        try await KitHarness.eventually("the reply's quote") {
            await MainActor.run { self.bubbles(dialogue).last?.reply?.text == "\(bobName): hello there" }
        }

        // Bob recalls: a notice takes the message's place, in both the dialogue and the cache.
        _ = try await bob.recall(original)
        try await KitHarness.eventually("the recall notice") {
            await MainActor.run { self.notices(dialogue).contains("\(bobName) recalled a message") }
        }
        #expect(!bubbles(dialogue).contains { $0.id == original.id })
        let cached = try await alice.cachedMessages(in: conversation, limit: 50)
        #expect(cached.first { $0.id == original.id }?.recalled != nil && cached.first { $0.id == original.id }?.text == nil)
        let seqs = cached.map(\.seq)
        #expect(seqs == Array((seqs.first ?? 1)...(seqs.last ?? 0)), "the cache holds the sequence without a gap")
        dialogue.close()
        await alice.stop()
        await bob.stop()
    }

    @Test("a client that was away catches up through sync: the messages in their current state")
    func offlineCatchUp() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let alice = try KitHarness.client(server)
        let bob = try KitHarness.client(server)
        let conversation = try await KitHarness.friends(alice, KitHarness.username("alice"), bob, KitHarness.username("bob"))
        let sent = try await bob.reply(to: nil, text: "version one", in: conversation)
        try await KitHarness.eventually("alice has it") {
            (try? await alice.cachedMessages(in: conversation, limit: 50))?.contains { $0.id == sent.id } == true
        }
        await alice.stop()
        _ = try await bob.edit(sent, text: "version two")
        _ = try await bob.react(to: sent, with: "🎉")
        await alice.start()
        try await KitHarness.eventually("the state after sync", timeout: .seconds(20)) {
            let cached = try? await alice.cachedMessages(in: conversation, limit: 50).first { $0.id == sent.id }
            return cached?.text == "version two" && cached?.reactions?.first?.emoji == "🎉"
        }
        await alice.stop()
        await bob.stop()
    }

    @Test("edits and reactions made offline wait in the action outbox and go out once, in order")
    func offlineActionsQueue() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let alice = try KitHarness.client(server)
        let bob = try KitHarness.client(server)
        let conversation = try await KitHarness.friends(alice, KitHarness.username("alice"), bob, KitHarness.username("bob"))
        let sent = try await bob.reply(to: nil, text: "draft", in: conversation)
        await bob.stop()
        try await bob.queue(.edit(EditParameters(conversationId: conversation, messageId: sent.id, clientId: "q-edit", text: "final")))
        try await bob.queue(.react(ReactParameters(conversationId: conversation, messageId: sent.id, clientId: "q-react", emoji: "✅")))
        #expect(try await bob.pendingActions().map(\.clientId) == ["q-edit", "q-react"])
        await bob.start()
        try await KitHarness.eventually("the queue drains", timeout: .seconds(20)) { (try? await bob.pendingActions())?.isEmpty == true }
        let page = try await alice.history(in: conversation)
        let shown = try #require(page.messages.first { $0.id == sent.id })
        #expect(shown.text == "final" && shown.reactions?.map(\.emoji) == ["✅"])
        let events = page.messages.filter { $0.system?.type.isMessageAction == true }
        #expect(events.map(\.clientId) == ["q-edit", "q-react"], "each stored once, in the order made")
        await alice.stop()
        await bob.stop()
    }

    @Test("a mention raises the row's @ count, live; reading the conversation clears it")
    func mentionCount() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let alice = try KitHarness.client(server)
        let bob = try KitHarness.client(server)
        _ = try await KitHarness.friends(alice, KitHarness.username("alice"), bob, KitHarness.username("bob"))
        let group = try await bob.createGroup(name: KitHarness.username("club"))
        let groupName = group.name
        _ = try await alice.joinGroup(name: groupName)
        let aliceID = try #require(await alice.account?.profile.id)
        let sessions = SessionsViewModel(client: alice, language: .english)
        await sessions.start()
        try await KitHarness.eventually("the group's row") { await MainActor.run { sessions.rows.contains { $0.id == group.id } } }
        _ = try await bob.reply(to: nil, text: "@alice look", in: group.id, mentions: [aliceID])
        _ = try await bob.reply(to: nil, text: "no mention", in: group.id)
        try await KitHarness.eventually("the @ count") {
            await MainActor.run { sessions.rows.first { $0.id == group.id }?.mentions == 1 }
        }
        let dialogue = DialogueViewModel(client: alice, conversation: group.id, language: .english)
        await dialogue.open()
        #expect(bubbles(dialogue).first { $0.text == "@alice look" }?.mentionsMe == true)
        #expect(bubbles(dialogue).first { $0.text == "no mention" }?.mentionsMe == false)
        try await KitHarness.eventually("read clears it") {
            await MainActor.run { sessions.rows.first { $0.id == group.id }?.mentions == 0 }
        }
        dialogue.close()
        sessions.stop()
        await alice.stop()
        await bob.stop()
    }
}
