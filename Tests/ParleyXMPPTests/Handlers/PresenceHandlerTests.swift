import ParleyCore
import ParleyProtocol
import Testing
@testable import ParleyXMPP

@Suite struct PresenceHandlerTests {
    @Test func theInitialPresenceGoesFromTheFullJIDToFriendsAndTheUserAndBringsWhatWaited() async throws {
        let fixture = try HandlerFixture()
        let alice = try await fixture.user("alice")
        let bob = try await fixture.user("bob")
        _ = try await fixture.befriend(alice.user, bob.user)
        // Bob has an available resource on this server, away.
        let away = [XMLElement("show", [:], text: "away")]
        _ = fixture.services.resources.bind(bob.user, requested: "desk", token: ConnectionToken(7))
        fixture.services.resources.setPresence(bob.user, resource: "desk", token: ConnectionToken(7), presence: away)
        let context = fixture.context()
        _ = fixture.services.resources.bind(alice.user, requested: "r", token: context.token)

        let initial = XMLElement("presence", [:], children: [XMLElement("status", [:], text: "hi"), XMLElement("priority", [:], text: "3")])
        await fixture.stanza(initial, me: alice, context: context)

        // Bob's resource as it is, from its full JID.
        let seen = try #require(await context.sent.first { $0.name == "presence" })
        #expect(seen["from"] == "bob@chat.test/desk" && seen.child("show")?.text == "away")
        #expect(await context.caughtUp == 1)
        // Alice's presence goes to bob and to alice herself (the sender included), from her full JID.
        let (broadcast, users) = try #require(fixture.registry.forwarded.last)
        #expect(broadcast.stanza == "presence" && broadcast.type == nil && broadcast.from == "alice@chat.test/r")
        #expect(Set(users) == [alice.user, bob.user])
        #expect(broadcast.children.contains("<status>hi</status>") && broadcast.children.contains("<priority>3</priority>"))
        #expect(fixture.services.resources.available(alice.user).map(\.resource) == ["r"])

        // A second presence is a change: broadcast again, nothing waits any more.
        await fixture.stanza(XMLElement("presence", [:], children: [XMLElement("show", [:], text: "dnd")]), me: alice, context: context)
        #expect(await context.caughtUp == 1)
        #expect(fixture.registry.forwarded.last?.0.children.contains("dnd") == true)

        // Unavailable on the open stream: passed on, and the resource is no longer available.
        await fixture.stanza(XMLElement("presence", ["type": "unavailable"]), me: alice, context: context)
        #expect(fixture.registry.forwarded.last?.0.type == "unavailable")
        #expect(fixture.services.resources.available(alice.user).isEmpty)
        #expect(await context.available == false)
    }

    @Test func aTakenResourceNameGetsAnotherAndOriginsAreKeptPerUser() {
        let resources = XMPPResources(kept: 8)
        let alice = UserID(rawValue: 1)
        #expect(resources.bind(alice, requested: "phone", token: ConnectionToken(1)) == "phone")
        let second = resources.bind(alice, requested: "phone", token: ConnectionToken(2))
        #expect(second != "phone" && second.hasPrefix("phone-"))
        #expect(resources.bind(alice, requested: XMPPResources.nativeResource, token: ConnectionToken(3)) != XMPPResources.nativeResource)
        #expect(resources.streamCount(alice) == 3)

        resources.sending(alice, clientID: "m1", origin: XMPPResources.Origin(resource: "phone", originID: "o1"))
        #expect(resources.origin(of: alice, clientID: "m1") == XMPPResources.Origin(resource: "phone", originID: "o1"))
        #expect(resources.origin(of: UserID(rawValue: 2), clientID: "m1") == nil)
        // Only the newest are kept.
        for index in 0..<resources.kept { resources.sending(alice, clientID: "n\(index)", origin: .init(resource: "phone", originID: nil)) }
        #expect(resources.origin(of: alice, clientID: "m1") == nil)
        #expect(resources.origin(of: alice, clientID: "n0") != nil)

        // Unbinding only the stream that holds the name; the last one takes the origins along.
        resources.unbind(alice, resource: "phone", token: ConnectionToken(9))
        #expect(resources.streamCount(alice) == 3)
        resources.unbind(alice, resource: "phone", token: ConnectionToken(1))
        resources.unbind(alice, resource: second, token: ConnectionToken(2))
        #expect(resources.streamCount(alice) == 1)
    }

    @Test func markersSeenBeforeASendReturnsAnswerItOnlyWhileTheUserHasAStream() {
        let resources = XMPPResources(kept: 4)
        let alice = UserID(rawValue: 1)
        let conversation = ConversationID(rawValue: 7)
        let sent = AwaitedReceipts.Sent(conversation: conversation, seq: 5, stanzaID: "s5", receipt: true, markable: false)
        // No stream here: the markers are not kept, nor the send.
        #expect(resources.answerReceipts(alice, in: conversation, delivered: 5, read: nil).received.isEmpty)
        #expect(resources.awaitReceipt(alice, sent).received.isEmpty)
        #expect(resources.streamCount(alice) == 0)
        // With a stream (and no send yet): the peer's marker passes the message before its
        // send returns, and the send is answered at once.
        _ = resources.bind(alice, requested: "phone", token: ConnectionToken(1))
        #expect(resources.answerReceipts(alice, in: conversation, delivered: 5, read: nil).received.isEmpty)
        #expect(resources.awaitReceipt(alice, sent).received == ["s5"])
        // The last stream's end takes it all along.
        resources.unbind(alice, resource: "phone", token: ConnectionToken(1))
        _ = resources.bind(alice, requested: "phone", token: ConnectionToken(2))
        #expect(resources.awaitReceipt(alice, sent).received.isEmpty)
    }

    @Test func theReceiptsMemoryKeepsTheConfiguredNumberOfMessages() {
        let resources = XMPPResources(kept: 3)
        let alice = UserID(rawValue: 1)
        let conversation = ConversationID(rawValue: 7)
        // Kept while the user has a stream here.
        _ = resources.bind(alice, requested: "phone", token: ConnectionToken(1))
        for seq in 1...4 {
            _ = resources.awaitReceipt(alice, AwaitedReceipts.Sent(conversation: conversation, seq: Int64(seq), stanzaID: "s\(seq)",
                                                                   receipt: true, markable: false))
        }
        // The oldest of four was forgotten: three are answered.
        let answer = resources.answerReceipts(alice, in: conversation, delivered: 4, read: nil)
        #expect(answer.received == ["s2", "s3", "s4"])
        #expect(XMPPResources(kept: 0).kept == 1)
    }
}
