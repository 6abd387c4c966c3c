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

    @Test func aReceiptMovesTheDeliveredMarkerOnlyAndDisplayedTheReadMarker() async throws {
        let fixture = try HandlerFixture()
        let alice = try await fixture.user("alice")
        let bob = try await fixture.user("bob")
        let conversation = try await fixture.befriend(alice.user, bob.user)
        let sent = try await fixture.services.conversations.send(
            from: bob.user, SendParameters(conversationId: conversation, clientId: "b-1", kind: .text, text: "hi"), connection: nil).message
        _ = fixture.delivery.take()
        func marker(_ name: String, _ namespace: String, _ id: String) -> XMLElement {
            XMLElement("message", ["type": "chat"], children: [XMLElement(name, namespace: namespace, ["id": id])])
        }
        func receipts() -> [ReceiptState] {
            fixture.delivery.take().compactMap { sent in
                guard case .conversationReceipt(let state) = sent.event, sent.users == [bob.user] else { return nil }
                return state
            }
        }

        // Alice's client got Bob's message: delivered, not read.
        try await fixture.handlers.signals.forward(marker("received", Namespace.receipts, "b-1"), from: alice, to: bob.user,
                                                   context: fixture.context())
        #expect(receipts() == [ReceiptState(conversationId: conversation, userId: alice.user, deliveredSeq: sent.seq)])
        let unread = try await fixture.services.conversations.list(for: alice.user).conversations.first { $0.id == conversation }
        #expect(try #require(unread).readSeq < sent.seq)

        // An id that names no message of Bob's here moves nothing.
        try await fixture.handlers.signals.forward(marker("displayed", Namespace.chatMarkers, "nope"), from: alice, to: bob.user,
                                                   context: fixture.context())
        #expect(receipts().isEmpty)

        // Shown: the read marker moves (by the stanza id the message came with).
        try await fixture.handlers.signals.forward(marker("displayed", Namespace.chatMarkers, "b-1"), from: alice, to: bob.user,
                                                   context: fixture.context())
        #expect(receipts() == [ReceiptState(conversationId: conversation, userId: alice.user, readSeq: sent.seq, deliveredSeq: sent.seq)])
        let read = try await fixture.services.conversations.list(for: alice.user).conversations.first { $0.id == conversation }
        #expect(read?.readSeq == sent.seq && read?.unread == 0)
    }
}
