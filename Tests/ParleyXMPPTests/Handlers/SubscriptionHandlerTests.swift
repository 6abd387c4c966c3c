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
