import ParleyCore
import ParleyProtocol
import Testing
@testable import ParleyXMPP

@Suite struct MessageHandlerTests {
    private func chat(_ body: String?, to: JID?, id: String = "m1") -> XMLElement {
        XMLElement("message", ["type": "chat", "id": id, "to": to?.description],
                   children: body.map { [XMLElement("body", [:], text: $0)] } ?? [])
    }

    @Test func aChatMessageToAFriendIsStoredInTheir1to1ConversationUnderItsID() async throws {
        let fixture = try HandlerFixture()
        let alice = try await fixture.user("alice")
        let bob = try await fixture.user("bob")
        let conversation = try await fixture.befriend(alice.user, bob.user)
        let context = fixture.context()

        await fixture.stanza(chat("hello bob", to: bob.bare, id: "first"), me: alice, context: context)
        // The same stanza again (a client's retry) is stored once.
        await fixture.stanza(chat("hello bob", to: bob.bare, id: "first"), me: alice, context: context)

        let history = try await fixture.services.conversations.history(for: bob.user, HistoryParameters(conversationId: conversation))
        let texts = history.messages.filter { $0.kind == .text }
        #expect(texts.map(\.text) == ["hello bob"])
        #expect(texts.first?.clientId == "first")
        #expect(texts.first?.sender == alice.user)
        #expect(await context.sent.isEmpty)
    }

    @Test func aMessageToSomeoneNotAFriendIsRefusedAndNotStored() async throws {
        let fixture = try HandlerFixture()
        let alice = try await fixture.user("alice")
        let carol = try await fixture.user("carol")
        let context = fixture.context()

        await fixture.stanza(chat("hi", to: carol.bare), me: alice, context: context)

        let reply = try #require(await context.sent.first)
        #expect(reply["type"] == "error")
        #expect(reply.child("error")?.elements.first?.name == "forbidden")
        let list = try await fixture.services.conversations.list(for: carol.user)
        #expect(list.conversations.isEmpty)
    }

    @Test func aHeadlineIsRefusedAndAnErrorIgnored() async throws {
        let fixture = try HandlerFixture()
        let alice = try await fixture.user("alice")
        let bob = try await fixture.user("bob")
        let context = fixture.context()

        await fixture.stanza(XMLElement("message", ["type": "error", "to": bob.bare.description]), me: alice, context: context)
        #expect(await context.sent.isEmpty)
        await fixture.stanza(XMLElement("message", ["type": "headline", "to": bob.bare.description]), me: alice, context: context)
        #expect(await context.sent.first?.child("error")?.elements.first?.name == "bad-request")
    }

    @Test func aBodylessMessageCarriesItsChatStateToTheFriendsSessionsOnly() async throws {
        let fixture = try HandlerFixture()
        let alice = try await fixture.user("alice")
        let bob = try await fixture.user("bob")
        _ = try await fixture.befriend(alice.user, bob.user)
        var message = chat(nil, to: bob.bare)
        message.append(XMLElement("composing", namespace: Namespace.chatStates))

        await fixture.stanza(message, me: alice, context: fixture.context())

        let forwarded = try #require(fixture.registry.forwarded.first)
        #expect(forwarded.1 == [bob.user])
        #expect(forwarded.0.from == alice.full.description)
        #expect(forwarded.0.children.contains("composing"))
    }
}
