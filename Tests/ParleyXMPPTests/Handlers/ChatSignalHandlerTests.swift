import ParleyCore
import ParleyProtocol
import Testing
@testable import ParleyXMPP

@Suite struct ChatSignalHandlerTests {
    private func composing(_ id: String) -> XMLElement {
        XMLElement("message", ["type": "chat", "id": id], children: [
            XMLElement("composing", namespace: Namespace.chatStates),
            XMLElement("received", namespace: Namespace.receipts, ["id": "m1"]),
            XMLElement("x", namespace: "urn:example:other"),
        ])
    }

    @Test func statesAndReceiptsGoToAFriendsSessionsAndNothingElse() async throws {
        let fixture = try HandlerFixture()
        let alice = try await fixture.user("alice")
        let bob = try await fixture.user("bob")
        _ = try await fixture.befriend(alice.user, bob.user)

        try await fixture.handlers.signals.forward(composing("s1"), from: alice, to: bob.user, context: fixture.context())

        let handed = fixture.registry.forwarded
        #expect(handed.count == 1)
        let (stanza, users) = try #require(handed.first)
        #expect(users == [bob.user])
        #expect(stanza.from == alice.full.description && stanza.id == "s1" && stanza.type == "chat")
        #expect(stanza.children.contains("composing") && stanza.children.contains("received"))
        #expect(!stanza.children.contains("urn:example:other"))
        #expect(fixture.handlers.serverFeatures.contains(Namespace.chatStates))
    }

    @Test func aStrangerGetsNothing() async throws {
        let fixture = try HandlerFixture()
        let alice = try await fixture.user("alice")
        let carol = try await fixture.user("carol")
        await #expect(throws: ProtocolError.self) {
            try await fixture.handlers.signals.forward(composing("s2"), from: alice, to: carol.user, context: fixture.context())
        }
        #expect(fixture.registry.forwarded.isEmpty)
    }
}
