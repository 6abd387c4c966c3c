import Foundation
import ParleyKit
import ParleyProtocol
import Testing

@Suite("View models against a real server", .serialized)
@MainActor
struct ViewModelTests {
    @Test("sessions list: unread counts rise with messages and fall when the dialogue is read")
    func unreadCounts() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let alice = try KitHarness.client(server)
        let bob = try KitHarness.client(server)
        let bobName = KitHarness.username("bob")
        let conversation = try await KitHarness.friends(alice, KitHarness.username("alice"), bob, bobName)
        let sessions = SessionsViewModel(client: alice, language: .english)
        await sessions.start()
        try await KitHarness.eventually("alice online") { alice.connectionState.isOnline }
        try await KitHarness.eventually("the row appears") { await MainActor.run { sessions.rows.contains { $0.id == conversation } } }

        try await bob.sendAndWait(text: "one :)", to: conversation)
        try await bob.sendAndWait(text: "two", to: conversation)
        try await KitHarness.eventually("two more unread") {
            await MainActor.run { sessions.rows.first { $0.id == conversation }?.preview == "two" }
        }
        let row = try #require(sessions.rows.first { $0.id == conversation })
        #expect(row.title == bobName)
        #expect(row.unread == 3, "the friend_added notice and two messages")
        #expect(row.badge == "3")
        #expect(sessions.totalUnread == 3)
        #expect(sessions.connection == .online)
        #expect(sessions.banner == nil)

        let dialogue = DialogueViewModel(client: alice, conversation: conversation, language: .english)
        await dialogue.open()
        #expect(dialogue.title == bobName)
        #expect(dialogue.items.compactMap { if case .message(let bubble) = $0 { bubble.text } else { nil } } == ["one 🙂", "two"])
        try await KitHarness.eventually("read") { await MainActor.run { sessions.totalUnread == 0 } }
        #expect(sessions.rows.first { $0.id == conversation }?.unread == 0)
        dialogue.close()
        sessions.stop()
        await alice.stop()
        await bob.stop()
    }

    @Test("dialogue: a 'new message' indicator while scrolled up, history pages backwards, pending sends")
    func dialogueBehaviour() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let alice = try KitHarness.client(server)
        let bob = try KitHarness.client(server)
        let conversation = try await KitHarness.friends(alice, KitHarness.username("alice"), bob, KitHarness.username("bob"))
        for index in 1...70 { try await bob.send(text: "old \(index)", to: conversation) }
        try await KitHarness.eventually("bob's outbox drains", timeout: .seconds(30)) { try await bob.outbox().isEmpty }
        try await KitHarness.eventually("alice online") { alice.connectionState.isOnline }

        let dialogue = DialogueViewModel(client: alice, conversation: conversation, language: .english)
        await dialogue.open()
        #expect(dialogue.newestSeq == 71)
        #expect(dialogue.items.count == 50)
        #expect(dialogue.hasMoreHistory)
        await dialogue.loadOlder()
        #expect(dialogue.items.count == 71)
        #expect(dialogue.items.first?.seq == 1)
        #expect(!dialogue.hasMoreHistory)
        if case .notice = dialogue.items.first {} else { Issue.record("seq 1 should be the friend_added notice") }

        // Scrolled up: a new message from bob raises the indicator and is not marked read.
        dialogue.scrolled(toBottom: false)
        try await bob.sendAndWait(text: "are you there?", to: conversation)
        try await KitHarness.eventually("the indicator") { await MainActor.run { dialogue.showsNewMessageIndicator } }
        #expect(dialogue.newMessageCount == 1)
        #expect(try await alice.cachedConversation(conversation)?.unread == 1)
        dialogue.jumpToNewest()
        #expect(!dialogue.showsNewMessageIndicator)
        try await KitHarness.eventually("marked read") { try await alice.cachedConversation(conversation)?.unread == 0 }

        // At the bottom: the reader's own send shows as pending, then as a bubble; no indicator.
        dialogue.draft = "yes :D"
        await dialogue.send()
        #expect(dialogue.draft.isEmpty)
        try await KitHarness.eventually("own message shown") {
            await MainActor.run {
                dialogue.pending.isEmpty && dialogue.items.contains { if case .message(let bubble) = $0 { bubble.isSelf && bubble.text == "yes 😄" } else { false } }
            }
        }
        #expect(!dialogue.showsNewMessageIndicator)
        dialogue.close()
        await alice.stop()
        await bob.stop()
    }

    @Test("contacts: a request arrives, is accepted, and the friend and group sections fill")
    func contacts() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let alice = try KitHarness.client(server)
        let bob = try KitHarness.client(server)
        let aliceName = KitHarness.username("alice")
        let bobName = KitHarness.username("bob")
        try await alice.register(username: aliceName, password: "password123")
        try await bob.register(username: bobName, password: "password123")
        try await KitHarness.eventually("online") { alice.connectionState.isOnline && bob.connectionState.isOnline }
        let bobContacts = ContactsViewModel(client: bob, language: .english)
        await bobContacts.start()
        let aliceContacts = ContactsViewModel(client: alice, language: .english)
        await aliceContacts.start()
        await aliceContacts.perform(.addFriend(username: bobName))
        #expect(aliceContacts.lastResult == "Friend request sent")
        try await KitHarness.eventually("bob sees the request") { await MainActor.run { bobContacts.incomingRequests.count == 1 } }
        let request = try #require(bobContacts.incomingRequests.first)
        #expect(request.from.username == aliceName)
        let opened = await bobContacts.accept(request)
        #expect(opened != nil)
        #expect(bobContacts.friends.map(\.name) == [aliceName])
        try await KitHarness.eventually("alice sees bob as a friend") { await MainActor.run { aliceContacts.friends.map(\.name) == [bobName] } }

        let groupName = "Hikers \(UUID().uuidString.prefix(4))"
        let group = await aliceContacts.perform(.createGroup(name: groupName))
        #expect(group != nil)
        try await KitHarness.eventually("the group is listed") { await MainActor.run { aliceContacts.groups.map(\.name) == [groupName] } }
        await aliceContacts.perform(.joinGroup(name: "nothing like this"))
        #expect(aliceContacts.lastError?.code == .notFound)
        aliceContacts.stop()
        bobContacts.stop()
        await alice.stop()
        await bob.stop()
    }

    @Test("profile edits and the discover deck")
    func profileAndDiscover() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let alice = try KitHarness.client(server)
        let bob = try KitHarness.client(server)
        try await alice.register(username: KitHarness.username("alice"), password: "password123")
        try await bob.register(username: KitHarness.username("bob"), password: "password123")
        let profile = ProfileViewModel(client: alice)
        await profile.start()
        profile.beginEditing()
        profile.nickname = "Alice 🌸"
        profile.signature = "tea and hills"
        await profile.save()
        #expect(profile.lastError == nil)
        #expect(!profile.isEditing)
        #expect(profile.displayName == "Alice 🌸")
        #expect(profile.account?.profile.signature == "tea and hills")

        let aliceDeck = DiscoverViewModel(client: alice)
        await aliceDeck.load()
        let bobID = try #require(await bob.account?.profile.id)
        #expect(aliceDeck.cards.contains { $0.id == bobID })
        while let top = aliceDeck.top, top.id != bobID { await aliceDeck.pass() }
        await aliceDeck.like()
        #expect(aliceDeck.match == nil)
        let bobDeck = DiscoverViewModel(client: bob)
        await bobDeck.load()
        let aliceID = try #require(await alice.account?.profile.id)
        while let top = bobDeck.top, top.id != aliceID { await bobDeck.pass() }
        await bobDeck.like()
        #expect(bobDeck.match?.user.id == aliceID)
        await alice.stop()
        await bob.stop()
    }
}
