import ParleyCore
import ParleyProtocol
import CoreTestSupport
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
        let conversation = try await fixture.befriend(alice.user, bob.user)
        _ = fixture.delivery.take()

        try await fixture.handlers.signals.forward(composing("s1"), from: alice, to: bob.user, context: fixture.context())

        // Receipts are handed to the friend's Jabber sessions as they came.
        let handed = fixture.registry.forwarded
        #expect(handed.count == 1)
        let (stanza, users) = try #require(handed.first)
        #expect(users == [bob.user])
        #expect(stanza.from == alice.full.description && stanza.id == "s1" && stanza.type == "chat")
        #expect(stanza.children.contains("received") && !stanza.children.contains("composing"))
        #expect(!stanza.children.contains("urn:example:other"))
        // The chat state is Parley typing: to every connection of the friend, native or Jabber.
        #expect(fixture.delivery.take() == [RecordingDelivery.Sent(
            event: .typing(TypingNotice(conversationId: conversation, userId: alice.user, typing: true)), users: [bob.user], excluding: nil)])
        let paused = XMLElement("message", ["type": "chat", "id": "s3"], children: [XMLElement("paused", namespace: Namespace.chatStates)])
        try await fixture.handlers.signals.forward(paused, from: alice, to: bob.user, context: fixture.context())
        #expect(fixture.delivery.take().map(\.event) == [.typing(TypingNotice(conversationId: conversation, userId: alice.user, typing: false))])
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
