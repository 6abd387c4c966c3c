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

    @Test func aChatMessageToAKnownFriendIsSentWithNoTaskAndAnsweredAfterItsCommit() async throws {
        let fixture = try HandlerFixture()
        let alice = try await fixture.user("alice")
        let bob = try await fixture.user("bob")
        let conversation = try await fixture.befriend(alice.user, bob.user)
        let context = fixture.context()

        // Not known to the stream yet (no roster, the name not met): left to `handle`.
        #expect(await !context.startDirect(chat("hi", to: bob.bare), me: alice))
        fixture.services.directory.remember(try await fixture.services.accounts.profile(id: bob.user))
        #expect(await !context.startDirect(chat("hi", to: bob.bare), me: alice))
        await context.know(bob.user, in: conversation)

        #expect(await context.startDirect(chat("hello bob", to: bob.bare, id: "quick"), me: alice))
        for _ in 0..<500 where await context.directSendsFinished == 0 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(await context.directSendsFinished == 1)
        let history = try await fixture.services.conversations.history(for: bob.user, HistoryParameters(conversationId: conversation))
        let texts = history.messages.filter { $0.kind == .text }
        #expect(texts.map(\.text) == ["hello bob"])
        #expect(texts.first?.clientId == "quick")
        #expect(await context.sent.isEmpty)

        // Too long: refused before the write, answered with its error at once.
        #expect(await context.startDirect(chat(String(repeating: "x", count: 4001), to: bob.bare, id: "long"), me: alice))
        #expect(await context.directSendsFinished == 2)
        let reply = try #require(await context.sent.first)
        #expect(reply["type"] == "error" && reply["id"] == "long")
        #expect(reply.child("error")?.elements.first?.name == "bad-request")

        // What needs more than the send: a correction, an invitation, an address by id.
        var correction = chat("hello bob!", to: bob.bare, id: "fix")
        correction.append(XMLElement("replace", namespace: Namespace.correction, ["id": "quick"]))
        #expect(await !context.startDirect(correction, me: alice))
        var invitation = chat("join us", to: bob.bare, id: "invite")
        invitation.append(XMLElement("x", namespace: Namespace.conference, ["jid": "room@conference.chat.test"]))
        #expect(await !context.startDirect(invitation, me: alice))
        #expect(await !context.startDirect(chat("hi", to: JID(local: "~\(bob.user.rawValue)", domain: HandlerFixture.domain)), me: alice))
        #expect(await context.directSendsFinished == 2)
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

        message.append(XMLElement("received", namespace: Namespace.receipts, ["id": "x1"]))

        await fixture.stanza(message, me: alice, context: fixture.context())

        // The receipt goes to Bob's XMPP sessions; the chat state becomes Parley's typing.
        let forwarded = try #require(fixture.registry.forwarded.first)
        #expect(forwarded.1 == [bob.user])
        #expect(forwarded.0.from == alice.full.description)
        #expect(forwarded.0.children.contains("received") && !forwarded.0.children.contains("composing"))
        #expect(fixture.delivery.events.contains { sent in
            if case .typing(let notice) = sent.event { return notice.userId == alice.user && notice.typing && sent.users == [bob.user] }
            return false
        })
    }

    @Test func aSentMessageThatAskedIsAnsweredWhenTheNativePeersMarkersPassIt() async throws {
        let fixture = try HandlerFixture()
        let alice = try await fixture.user("alice")
        let bob = try await fixture.user("bob")
        let conversation = try await fixture.befriend(alice.user, bob.user)
        _ = fixture.services.resources.bind(alice.user, requested: "r", token: ConnectionToken(42))
        let context = fixture.context()
        var asked = chat("read me", to: bob.bare, id: "ask-1")
        asked.append(XMLElement("request", namespace: Namespace.receipts))
        asked.append(XMLElement("markable", namespace: Namespace.chatMarkers))
        await fixture.stanza(asked, me: alice, context: context)
        await fixture.stanza(chat("asks nothing", to: bob.bare, id: "plain-1"), me: alice, context: context)
        #expect(await context.sent.isEmpty)

        // Bob reads both: the core tells Alice, and what that answers is the asking one's id.
        let seq = try await fixture.services.conversations.history(for: bob.user, HistoryParameters(conversationId: conversation))
            .messages.map(\.seq).max() ?? 0
        try await fixture.services.conversations.moveReadMarker(for: bob.user, ReadParameters(conversationId: conversation, seq: seq),
                                                                connection: nil)
        let receipt = try #require(fixture.delivery.events.compactMap { sent -> ReceiptState? in
            if case .conversationReceipt(let state) = sent.event, sent.users == [alice.user] { return state }
            return nil
        }.last)
        #expect(receipt.readSeq == seq)
        let answer = fixture.services.resources.answerReceipts(alice.user, in: conversation, delivered: receipt.deliveredSeq,
                                                               read: receipt.readSeq)
        #expect(answer == AwaitedReceipts.Answer(received: ["ask-1"], displayed: "ask-1"))
        // Answered once.
        #expect(fixture.services.resources.answerReceipts(alice.user, in: conversation, delivered: seq, read: seq) == .init())
    }
}
