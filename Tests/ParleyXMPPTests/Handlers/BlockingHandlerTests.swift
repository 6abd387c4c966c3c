import ParleyCore
import ParleyProtocol
import Testing
@testable import ParleyXMPP

@Suite struct BlockingHandlerTests {
    private func blocklist(_ fixture: HandlerFixture, _ me: XMPPIdentity) async throws -> [String?] {
        let list = try #require(try await fixture.answer("get", XMLElement("blocklist", namespace: Namespace.blocking), me: me,
                                                         context: fixture.context()))
        return list.elements.map { $0["jid"] }
    }

    @Test func blockingAndUnblockingChangeTheCoresBlockList() async throws {
        let fixture = try HandlerFixture()
        let alice = try await fixture.user("alice")
        let bob = try await fixture.user("bob")
        let carol = try await fixture.user("carol")
        #expect(try await blocklist(fixture, alice).isEmpty)

        let block = XMLElement("block", namespace: Namespace.blocking, [:], children: [
            XMLElement("item", namespace: Namespace.blocking, ["jid": bob.bare.description]),
            XMLElement("item", namespace: Namespace.blocking, ["jid": carol.bare.description]),
        ])
        #expect(try await fixture.answer("set", block, me: alice, context: fixture.context()) == nil)
        #expect(Set(try await blocklist(fixture, alice)) == ["bob@chat.test", "carol@chat.test"])
        #expect(Set(try await fixture.services.social.allBlocked(by: alice.user).map(\.id)) == [bob.user, carol.user])

        let unblockBob = XMLElement("unblock", namespace: Namespace.blocking, [:], children: [
            XMLElement("item", namespace: Namespace.blocking, ["jid": bob.bare.description]),
        ])
        _ = try await fixture.answer("set", unblockBob, me: alice, context: fixture.context())
        #expect(try await blocklist(fixture, alice) == ["carol@chat.test"])

        // An unblock naming nobody unblocks everyone.
        _ = try await fixture.answer("set", XMLElement("unblock", namespace: Namespace.blocking), me: alice, context: fixture.context())
        #expect(try await blocklist(fixture, alice).isEmpty)
    }

    @Test func aBlockNamingNobodyOrAnUnknownUserFails() async throws {
        let fixture = try HandlerFixture()
        let alice = try await fixture.user("alice")
        do {
            _ = try await fixture.answer("set", XMLElement("block", namespace: Namespace.blocking), me: alice, context: fixture.context())
            Issue.record("an empty block was accepted")
        } catch let error as ProtocolError {
            #expect(error.code == .missingField)
        }
        let unknown = XMLElement("block", namespace: Namespace.blocking, [:], children: [
            XMLElement("item", namespace: Namespace.blocking, ["jid": "nobody@chat.test"]),
        ])
        await #expect(throws: ProtocolError.self) {
            _ = try await fixture.answer("set", unknown, me: alice, context: fixture.context())
        }
        #expect(try await blocklist(fixture, alice).isEmpty)
    }
}
