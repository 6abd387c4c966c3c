import Foundation
import ParleyKit
import ParleyProtocol
import Testing

@Suite("ParleyClient against a real server", .serialized)
struct ParleyClientTests {
    @Test("two clients become friends and chat both ways, live")
    func twoClientsChat() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let alice = try KitHarness.client(server)
        let bob = try KitHarness.client(server)
        let aliceEvents = EventRecorder(alice)
        let bobEvents = EventRecorder(bob)
        let conversation = try await KitHarness.friends(alice, KitHarness.username("alice"), bob, KitHarness.username("bob"))

        let sent = try await alice.sendAndWait(text: "hello :)", to: conversation)
        #expect(sent.text == "hello :)")
        try await KitHarness.eventually("bob receives hello") { bobEvents.texts(in: conversation) == ["hello :)"] }
        try await bob.sendAndWait(text: "hi alice", to: conversation)
        try await KitHarness.eventually("alice receives the reply") { aliceEvents.texts(in: conversation) == ["hello :)", "hi alice"] }

        // The sessions list follows: bob has read nothing of alice's yet, alice's own count as read.
        let bobRow = try await bob.cachedConversation(conversation)
        #expect(bobRow?.lastMessage?.text == "hi alice")
        #expect(bobRow?.unread == 0)
        let aliceRow = try #require(try await alice.cachedConversation(conversation))
        #expect(aliceRow.unread == 1)
        let read = try await alice.markRead(conversation, upTo: aliceRow.lastSeq)
        #expect(read.unread == 0)
        #expect(try await alice.cachedConversation(conversation)?.unread == 0)
        #expect(try await alice.outbox().isEmpty)
        await alice.stop()
        await bob.stop()
    }

    @Test("typed errors carry the protocol's code and field")
    func typedErrors() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try KitHarness.client(server)
        await #expect(throws: ParleyError.self) { try await client.friends() }
        do {
            try await client.register(username: "x", password: "password123")
            Issue.record("a one-letter username was accepted")
        } catch {
            #expect(error.code == .invalidUsername)
        }
        try await client.register(username: KitHarness.username("carol"), password: "password123")
        do {
            _ = try await client.joinGroup(name: "no such group")
            Issue.record("joined a group that does not exist")
        } catch {
            #expect(error.code == .notFound)
        }
        do {
            _ = try await client.requestFriend(username: "nobody-here")
            Issue.record("asked a user that does not exist")
        } catch {
            #expect(error.code == .notFound)
        }
        await client.stop()
    }

    @Test("the server restarts while one client sends: the outbox flushes in order, the other receives each message once")
    func outboxAcrossServerRestart() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let alice = try KitHarness.client(server, database: KitHarness.databasePath(server, "alice"))
        let bob = try KitHarness.client(server, database: KitHarness.databasePath(server, "bob"))
        let bobEvents = EventRecorder(bob)
        let conversation = try await KitHarness.friends(alice, KitHarness.username("alice"), bob, KitHarness.username("bob"))
        try await KitHarness.eventually("both online") { alice.connectionState.isOnline && bob.connectionState.isOnline }

        try await alice.send(text: "one", to: conversation)
        try await alice.send(text: "two", to: conversation)
        server.halt()
        try await alice.send(text: "three", to: conversation)
        try await KitHarness.eventually("alice sees the connection go") { !alice.connectionState.isOnline }
        for text in ["four", "five", "six"] { try await alice.send(text: text, to: conversation) }
        #expect(try await alice.outbox().count >= 4)
        try await Task.sleep(for: .milliseconds(300))
        try server.start()
        try await alice.send(text: "seven", to: conversation)

        let expected = ["one", "two", "three", "four", "five", "six", "seven"]
        try await KitHarness.eventually("bob has all seven", timeout: .seconds(30)) { bobEvents.texts(in: conversation).count >= expected.count }
        try await Task.sleep(for: .milliseconds(300))
        #expect(bobEvents.texts(in: conversation) == expected)
        let seqs = bobEvents.messages(in: conversation).map(\.seq)
        #expect(seqs == seqs.sorted())
        #expect(Set(seqs).count == seqs.count)
        try await KitHarness.eventually("alice's outbox drains") { try await alice.outbox().isEmpty }
        await alice.stop()
        await bob.stop()
    }

    @Test("the outbox survives an app restart and goes out with its client ids")
    func outboxAcrossAppRestart() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let aliceDatabase = KitHarness.databasePath(server, "alice")
        var alice: ParleyClient? = try KitHarness.client(server, database: aliceDatabase)
        let bob = try KitHarness.client(server)
        let bobEvents = EventRecorder(bob)
        let conversation = try await KitHarness.friends(try #require(alice), KitHarness.username("alice"), bob, KitHarness.username("bob"))

        server.halt()
        let firstAlice = try #require(alice)
        try await KitHarness.eventually("alice offline") { !firstAlice.connectionState.isOnline }
        try await alice?.send(text: "written offline 1", to: conversation)
        try await alice?.send(text: "written offline 2", to: conversation)
        let queued = try await alice?.outbox().map(\.clientId) ?? []
        #expect(queued.count == 2)
        await alice?.stop()
        alice = nil

        try server.start()
        let reopened = try KitHarness.client(server, database: aliceDatabase)
        #expect(await reopened.isSignedIn)
        #expect(try await reopened.outbox().map(\.clientId) == queued)
        await reopened.start()
        try await KitHarness.eventually("bob receives both", timeout: .seconds(30)) { bobEvents.texts(in: conversation).count >= 2 }
        #expect(bobEvents.texts(in: conversation) == ["written offline 1", "written offline 2"])
        #expect(bobEvents.messages(in: conversation).filter { $0.kind == .text }.map(\.clientId) == queued)
        try await KitHarness.eventually("outbox empty") { try await reopened.outbox().isEmpty }
        await reopened.stop()
        await bob.stop()
    }

    @Test("offline start: the cache shows the last sessions and messages with the server down")
    func offlineStart() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let database = KitHarness.databasePath(server, "alice")
        let alice = try KitHarness.client(server, database: database)
        let bob = try KitHarness.client(server)
        let bobName = KitHarness.username("bob")
        let conversation = try await KitHarness.friends(alice, KitHarness.username("alice"), bob, bobName)
        try await bob.sendAndWait(text: "see you later", to: conversation)
        try await KitHarness.eventually("alice has bob's message") {
            try await alice.cachedConversation(conversation)?.lastMessage?.text == "see you later"
        }
        let group = try await alice.createGroup(name: "Tea \(UUID().uuidString.prefix(4))")
        try await KitHarness.eventually("the group is in the sessions list") {
            try await alice.cachedConversations().contains { $0.id == group.id }
        }
        await alice.stop()
        await bob.stop()
        server.halt()

        let reopened = try KitHarness.client(server, database: database)
        await reopened.start()
        let sessions = try await reopened.cachedConversations()
        #expect(sessions.count == 2)
        let row = try #require(sessions.first { $0.id == conversation })
        #expect(row.peer?.username == bobName)
        #expect(row.lastMessage?.text == "see you later")
        #expect(row.unread == 2, "the friend_added notice and bob's message")
        #expect(try await reopened.cachedMessages(in: conversation).compactMap(\.text) == ["see you later"])
        #expect(try await reopened.cachedFriends().map { $0.user.username } == [bobName])
        #expect(await reopened.account?.profile.username != nil)

        // What an app's first screen shows: the sessions list from the cache, and the banner.
        let (rows, banner) = await Self.firstScreen(of: reopened)
        #expect(rows.map(\.title).sorted() == [bobName, group.name].sorted())
        #expect(rows.first { $0.id == conversation }?.preview == "see you later")
        #expect(rows.first { $0.id == conversation }?.unread == 2)
        #expect(banner != nil)

        // Requests made now wait a little, then fail clearly.
        try await KitHarness.eventually("not online") {
            if case .offline = reopened.connectionState { return true }
            return false
        }
        await reopened.stop()
        do {
            _ = try await reopened.friends()
            Issue.record("a request succeeded with the server down")
        } catch {
            #expect(error == .offline(.stopped))
        }
        // Logging out clears the cache.
        await reopened.logout()
        #expect(try await reopened.cachedConversations().isEmpty)
        #expect(await reopened.isSignedIn == false)
    }

    @MainActor
    static func firstScreen(of client: ParleyClient) async -> (rows: [SessionRow], banner: String?) {
        let sessions = SessionsViewModel(client: client, language: .english)
        await sessions.start()
        defer { sessions.stop() }
        return (sessions.rows, sessions.banner)
    }

    @Test("rooms are entered again after a reconnect, and presence is reported once per change")
    func roomsAndPresence() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let alice = try KitHarness.client(server)
        let bob = try KitHarness.client(server)
        let aliceEvents = EventRecorder(alice)
        _ = try await KitHarness.friends(alice, KitHarness.username("alice"), bob, KitHarness.username("bob"))
        let roomName = "Lobby \(UUID().uuidString.prefix(4))"
        let created = try await alice.createRoom(name: roomName)
        _ = try await bob.enterRoom(name: roomName)

        server.halt()
        try await KitHarness.eventually("both offline") { !alice.connectionState.isOnline && !bob.connectionState.isOnline }
        try server.start()
        try await KitHarness.eventually("both back") { alice.connectionState.isOnline && bob.connectionState.isOnline }
        let occupants = try await alice.roomOccupants(created.room.id)
        #expect(occupants.count == 2)

        try await bob.sendAndWait(text: "back in the room", to: created.room.id)
        try await KitHarness.eventually("alice hears the room") { aliceEvents.texts(in: created.room.id).contains("back in the room") }

        let presence = aliceEvents.all.compactMap { event -> Presence? in
            if case .presence(let update) = event { return update }
            return nil
        }
        for (previous, next) in zip(presence, presence.dropFirst()) where previous.userId == next.userId {
            #expect(previous.online != next.online)
        }
        await alice.stop()
        await bob.stop()
    }
}
