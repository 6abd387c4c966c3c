import Foundation
import ParleyKit
import ParleyProtocol
import Testing

@Suite("Last seen and mutes across devices against a real server", .serialized)
@MainActor
struct LastSeenAndMuteTests {
    @Test("a friend's last seen once they go, hidden when they show it to nobody; a mute on one device shows on the other")
    func lastSeenAndMute() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let alice = try KitHarness.client(server)
        let bob = try KitHarness.client(server)
        let aliceName = KitHarness.username("alice")
        let conversation = try await KitHarness.friends(alice, aliceName, bob, KitHarness.username("bob"))
        try await KitHarness.eventually("both online") { alice.connectionState.isOnline && bob.connectionState.isOnline }
        try await KitHarness.eventually("the conversation cached") { try await alice.cachedConversation(conversation)?.peer != nil }
        let bobID = try #require(try await alice.cachedConversation(conversation)?.peer?.id)
        #expect(try await alice.lastSeen(of: bobID) == LastSeen(userId: bobID, online: true))
        await bob.stop()
        try await KitHarness.eventually("bob last seen") { try await alice.lastSeen(of: bobID).lastSeenAt != nil }
        let seen = try await alice.lastSeen(of: bobID)
        #expect(seen.online == false && (seen.lastSeenAt ?? 1) % 60_000 == 0)

        // A second device of alice's mutes the chat: the first one's sessions list shows it.
        let phone = try KitHarness.client(server)
        _ = try await phone.login(username: aliceName, password: "password123")
        try await KitHarness.eventually("phone online") { phone.connectionState.isOnline }
        let sessions = SessionsViewModel(client: alice, language: .english)
        await sessions.start()
        try await KitHarness.eventually("list") { await MainActor.run { sessions.rows.contains { $0.id == conversation } } }
        #expect(sessions.rows.first { $0.id == conversation }?.isMuted == false)
        try await phone.mute(conversation, until: Int64(Date().timeIntervalSince1970 * 1000) + 3_600_000)
        try await KitHarness.eventually("muted mark") { await MainActor.run { sessions.rows.first { $0.id == conversation }?.isMuted == true } }
        #expect(try await alice.cachedConversation(conversation)?.mute?.until != nil)
        try await phone.unmute(conversation)
        try await KitHarness.eventually("unmuted") { await MainActor.run { sessions.rows.first { $0.id == conversation }?.isMuted == false } }
        await phone.stop()
        await alice.stop()
    }
}
