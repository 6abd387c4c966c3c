import ParleyCore
import ParleyProtocol
import Testing
@testable import ParleyXMPP

@Suite struct SubscriptionHandlerTests {
    @Test func subscribingBothWaysMakesFriendsAndTheSecondIsToldAtOnce() async throws {
        let fixture = try HandlerFixture()
        let alice = try await fixture.user("alice")
        let bob = try await fixture.user("bob")
        let aliceStream = fixture.context()
        try await fixture.present("subscribe", to: bob, me: alice, context: aliceStream)
        #expect(try await fixture.services.social.allIncomingRequests(of: bob.user).map(\.from.id) == [alice.user])
        #expect(await aliceStream.sent.isEmpty)
        // Every stream of alice's gets the pending item (a roster push through the registry).
        let (pending, users) = try #require(fixture.registry.forwarded.first)
        #expect(users == [alice.user] && pending.stanza == "iq" && pending.type == "set")
        #expect(pending.children.contains("ask='subscribe'") && pending.children.contains("subscription='none'"))
        #expect(pending.children.contains("jid='bob@chat.test'"))
        let roster = try #require(try await fixture.answer("get", XMLElement("query", namespace: Namespace.roster), me: alice,
                                                           context: aliceStream))
        #expect(roster.elements.map { [$0["jid"], $0["subscription"], $0["ask"]] } == [["bob@chat.test", "none", "subscribe"]])

        // Bob asking back is accepting: friends at once, and bob's stream gets the roster push
        // and alice's approval (the core's event leaves his connection out).
        let bobStream = fixture.context()
        try await fixture.present("subscribe", to: alice, me: bob, context: bobStream)
        #expect(try await fixture.services.social.allFriends(of: bob.user).map(\.user.id) == [alice.user])
        let sent = await bobStream.sent
        let push = try #require(sent.first { $0.name == "iq" })
        #expect(push["type"] == "set" && push["to"] == bob.full.description)
        #expect(push.child("query", namespace: Namespace.roster)?.child("item")?["jid"] == "alice@chat.test")
        #expect(sent.contains { $0.name == "presence" && $0["type"] == "subscribed" && $0["from"] == "alice@chat.test" })
        #expect(await bobStream.learned == [alice.user])

        // Asking a friend again: the server answers for them (RFC 6121 §3.1.3).
        let again = fixture.context()
        try await fixture.present("subscribe", to: bob, me: alice, context: again)
        let reply = try #require(await again.sent.first)
        #expect(reply.name == "presence" && reply["type"] == "subscribed")
        #expect(reply["from"] == "bob@chat.test" && reply["to"] == "alice@chat.test")
    }

    @Test func subscribedAcceptsAndUnsubscribedDeclines() async throws {
        let fixture = try HandlerFixture()
        let alice = try await fixture.user("alice")
        let bob = try await fixture.user("bob")
        let carol = try await fixture.user("carol")
        try await fixture.present("subscribe", to: alice, me: bob, context: fixture.context())
        try await fixture.present("subscribe", to: alice, me: carol, context: fixture.context())

        let aliceStream = fixture.context()
        try await fixture.present("subscribed", to: bob, me: alice, context: aliceStream)
        try await fixture.present("unsubscribed", to: carol, me: alice, context: aliceStream)

        #expect(try await fixture.services.social.allFriends(of: alice.user).map(\.user.id) == [bob.user])
        #expect(try await fixture.services.social.allIncomingRequests(of: alice.user).isEmpty)
        #expect(await aliceStream.learned == [bob.user])

        // Unsubscribing from a friend ends the friendship.
        try await fixture.present("unsubscribe", to: bob, me: alice, context: aliceStream)
        #expect(try await fixture.services.social.allFriends(of: alice.user).isEmpty)
    }

    @Test func anUnknownUserGetsAnErrorBackAndOtherTypesHaveNoHandler() async throws {
        let fixture = try HandlerFixture()
        let alice = try await fixture.user("alice")
        let ghost: XMPPIdentity = (UserID(rawValue: 999), try #require(JID("ghost@chat.test")), try #require(JID("ghost@chat.test/r")))
        let stream = fixture.context()
        try await fixture.present("subscribe", to: ghost, me: alice, context: stream)
        let error = try #require(await stream.sent.first)
        #expect(error.name == "presence" && error["type"] == "error")
        #expect(error.child("error")?.child("item-not-found") != nil)
        #expect(fixture.handlers.presenceHandler(for: "probe") == nil)
        #expect(fixture.handlers.presenceHandler(for: "available") == nil)
    }
}
