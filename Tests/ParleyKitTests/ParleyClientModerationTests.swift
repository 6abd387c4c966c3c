import Foundation
import ParleyKit
import ParleyProtocol
import Testing

/// Reports and group disband through ParleyKit's typed calls on a real server.
@Suite struct ParleyClientModerationTests {
    /// The code of a refused call.
    private func code(_ call: () async throws(ParleyError) -> Void) async -> String? {
        do {
            try await call()
            return nil
        } catch .server(let error) {
            return error.code.rawValue
        } catch {
            return "\(error)"
        }
    }

    @Test("a message and a user are reported; a bad note is refused; the owner disbands a group for everyone")
    func reportAndDisband() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let alice = try KitHarness.client(server)
        let bob = try KitHarness.client(server)
        let bobName = KitHarness.username("bob")
        let conversation = try await KitHarness.friends(alice, KitHarness.username("alice"), bob, bobName)
        let message = try await bob.sendAndWait(text: "rude words", to: conversation)

        let receipt = try await alice.reportMessage(message, reason: .abuse, note: "again")
        #expect(Int64(receipt.id) != nil && receipt.createdAt > 0)
        let bobID = message.sender ?? UserID(0)
        let second = try await alice.reportUser(bobID, reason: .spam)
        #expect(Int64(second.id)! > Int64(receipt.id)!)
        #expect(await code { () throws(ParleyError) in _ = try await alice.reportUser(bobID, reason: .other, note: String(repeating: "x", count: 2_000)) } == "invalid_field")

        let group = try await alice.createGroup(name: KitHarness.username("club"))
        _ = try await bob.joinGroup(name: group.name)
        #expect(await code { () throws(ParleyError) in try await bob.disbandGroup(group.id) } == "not_owner")
        try await alice.disbandGroup(group.id)
        #expect(try await !alice.conversations().conversations.contains { $0.id == group.id })
        #expect(try await !bob.conversations().conversations.contains { $0.id == group.id })
        #expect(await code { () throws(ParleyError) in _ = try await bob.group(group.id) } == "not_member")
        await alice.stop()
        await bob.stop()
    }
}
