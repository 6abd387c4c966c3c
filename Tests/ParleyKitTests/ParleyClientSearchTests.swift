import Foundation
import ParleyKit
import ParleyProtocol
import Testing

/// Search through a real server: the typed calls, the server's handlers and its store.
@Suite struct ParleyClientSearchTests {
    @Test("messages are found in Chinese and English, paged, never after a recall; people by prefix unless unfindable")
    func searchThroughTheServer() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let alice = try KitHarness.client(server)
        let bob = try KitHarness.client(server)
        let bobName = KitHarness.username("bob")
        let conversation = try await KitHarness.friends(alice, KitHarness.username("alice"), bob, bobName)
        try await alice.sendAndWait(text: "明天下午三点开会", to: conversation)
        try await alice.sendAndWait(text: "Meeting moved to 3pm", to: conversation)
        let secret = try await alice.sendAndWait(text: "the meeting password is owl", to: conversation)

        let page = try await bob.searchMessages("MEETING", limit: 1)
        #expect(page.hits.map(\.message.text) == ["the meeting password is owl"])
        #expect(page.hits.first?.snippet.filter(\.match).map(\.text) == ["meeting"])
        let next = try await bob.searchMessages("meeting", before: page.nextBefore, limit: 1)
        #expect(next.hits.map(\.message.text) == ["Meeting moved to 3pm"])
        #expect(try await bob.searchMessages("开会", in: conversation).hits.map(\.message.text) == ["明天下午三点开会"])
        try await alice.recall(secret)
        #expect(try await bob.searchMessages("owl").hits.isEmpty)
        #expect(try await bob.searchMessages("meeting").hits.map(\.message.text) == ["Meeting moved to 3pm"])

        let prefix = String(bobName.prefix(5))
        #expect(try await alice.searchUsers(prefix: prefix).contains { $0.username == bobName })
        #expect(try await bob.setFindable(false) == false)
        #expect(try await alice.searchUsers(prefix: prefix).contains { $0.username == bobName } == false)
        #expect(try await bob.setFindable(nil) == false)
        await alice.stop()
        await bob.stop()
    }
}
