import Foundation
import ParleyKit
import ParleyProtocol
import Testing

@Suite("Friends' resources against a real server with the Jabber gateway", .serialized)
@MainActor
struct ResourcesTests {
    @Test("a friend's devices come and go in the contacts list, each a resource with its state")
    func friendsResources() async throws {
        let server = try TestServer(xmpp: true)
        defer { server.stop() }
        let alice = try KitHarness.client(server)
        let bob = try KitHarness.client(server)
        let aliceName = KitHarness.username("alice")
        _ = try await KitHarness.friends(alice, aliceName, bob, KitHarness.username("bob"))
        try await KitHarness.eventually("both online") { alice.connectionState.isOnline && bob.connectionState.isOnline }
        let aliceID = try #require(await alice.account?.profile.id)

        let contacts = ContactsViewModel(client: bob, language: .english)
        await contacts.start()
        // Alice's one device, asked for at start (or heard of live).
        try await KitHarness.eventually("alice's device") {
            await MainActor.run { contacts.friends.first?.resources.count == 1 }
        }
        let first = try #require(contacts.friends.first?.resources.first)
        #expect(first.client == ResourcePresence.parleyClient && first.userId == aliceID && first.available && first.show == nil)

        // A second device of Alice's signs in: two resources; it signs out: one again.
        let phone = try KitHarness.client(server)
        _ = try await phone.login(username: aliceName, password: "password123")
        try await KitHarness.eventually("two devices") { await MainActor.run { contacts.friends.first?.resources.count == 2 } }
        #expect(Set(contacts.friends.first?.resources.map(\.resource) ?? []).count == 2)
        #expect(try await bob.fetchResources(of: aliceID).count == 2)
        await phone.stop()
        try await KitHarness.eventually("one device again") { await MainActor.run { contacts.friends.first?.resources.map(\.resource) == [first.resource] } }

        // A stranger's resources are not told.
        let carol = try KitHarness.client(server)
        try await carol.register(username: KitHarness.username("carol"), password: "password123")
        await #expect(throws: ParleyError.self) { _ = try await carol.fetchResources(of: aliceID) }

        // Alice goes offline: nothing is left.
        await alice.stop()
        try await KitHarness.eventually("no device") { await MainActor.run { contacts.friends.first?.resources.isEmpty == true } }
        contacts.stop()
        await carol.stop()
        await bob.stop()
    }
}
