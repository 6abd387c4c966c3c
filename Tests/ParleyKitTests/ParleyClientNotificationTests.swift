import Foundation
import ParleyKit
import ParleyProtocol
import Testing

/// Mute and client state through a real server: the typed calls, the server's handlers and
/// the sessions list that shows a mute.
@Suite struct ParleyClientNotificationTests {
    @Test("a mute shows in the sessions list until unmuted; client state is accepted both ways")
    func muteAndClientState() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let alice = try KitHarness.client(server)
        let bob = try KitHarness.client(server)
        let conversation = try await KitHarness.friends(alice, KitHarness.username("alice"), bob, KitHarness.username("bob"))

        let mute = try await bob.mute(conversation, mentionsOnly: true)
        #expect(mute.mentionsOnly && mute.until == nil)
        let muted = try await bob.conversations().conversations.first { $0.id == conversation }
        #expect(muted?.mute?.mentionsOnly == true)
        #expect(try await alice.conversations().conversations.first { $0.id == conversation }?.mute == nil)
        try await bob.unmute(conversation)
        #expect(try await bob.conversations().conversations.first { $0.id == conversation }?.mute == nil)

        try await bob.setClientState(.inactive)
        try await bob.setClientState(.active)
        await #expect(throws: ParleyError.self) { try await bob.mute(ConversationID(987_654_321)) }
        await alice.stop()
        await bob.stop()
    }
}
