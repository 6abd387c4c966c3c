import CoreTestSupport
import ParleyCore
import ParleyProtocol
import Testing

/// Friend requests, friendships and their events, decided by the core alone.
@Suite struct SocialServiceTests {
    @Test func aRequestReachesItsTargetAndAcceptingTellsBoth() async throws {
        let core = try CoreFixture()
        let amy = try await core.user("amy"), ben = try await core.user("ben")
        let outcome = try await core.social.requestFriend(from: amy, FriendRequestParameters(userId: ben, greeting: "hello"), connection: nil)
        let request = try unwrapped(outcome.request)
        let asked = core.delivery.take()
        #expect(asked == [RecordingDelivery.Sent(event: .friendRequest(request), users: [ben], excluding: nil)])

        let friend = try await core.social.accept(request.id, by: ben)
        let told = core.delivery.take()
        let added = told.compactMap { sent -> (UserID, Friend)? in
            guard case .friendAdded(let friend) = sent.event else { return nil }
            return (sent.users[0], friend)
        }
        #expect(added.count == 2)
        #expect(added.contains { $0.0 == amy && $0.1.user.id == ben })
        #expect(added.contains { $0.0 == ben && $0.1.user.id == amy })
        // And the conversation's first message, the notice, to both.
        #expect(told.contains { sent in
            if case .messageNew(let message) = sent.event { return message.conversationId == friend.conversationId && Set(sent.users) == [amy, ben] }
            return false
        })
    }

    @Test func removingAFriendTellsBothAndAGreetingIsBounded() async throws {
        let core = try CoreFixture()
        let amy = try await core.user("amy"), ben = try await core.user("ben"), cat = try await core.user("cat")
        _ = try await core.befriend(amy, ben)
        _ = core.delivery.take()
        try await core.social.removeFriend(ben, by: amy)
        #expect(core.delivery.take() == [
            RecordingDelivery.Sent(event: .friendRemoved(UserReference(userId: ben)), users: [amy], excluding: nil),
            RecordingDelivery.Sent(event: .friendRemoved(UserReference(userId: amy)), users: [ben], excluding: nil),
        ])
        let bomb = "a" + String(repeating: "\u{301}", count: 10_000)
        await #expect(throws: ProtocolError.self) {
            _ = try await core.social.requestFriend(from: cat, FriendRequestParameters(userId: amy, greeting: bomb), connection: nil)
        }
        #expect(core.delivery.take().isEmpty, "a refused request reaches no one")
    }

    @Test func presenceGoesToFriendsWhoAreOnline() async throws {
        let core = try CoreFixture()
        let amy = try await core.user("amy"), ben = try await core.user("ben"), cat = try await core.user("cat")
        _ = try await core.befriend(amy, ben)
        _ = try await core.befriend(amy, cat)
        _ = core.delivery.take()
        core.delivery.setOnline(ben)
        core.delivery.setOnline(amy)
        await core.presence.cameOnline(amy)
        let sent = core.delivery.take()
        // Ben (online) hears Amy came, once; Cat, offline, hears nothing (Amy learns her
        // friends' state from friend.list).
        #expect(sent == [RecordingDelivery.Sent(event: .presence(Presence(userId: amy, online: true, at: core.clock.now)), users: [ben], excluding: nil)])
        core.delivery.setOnline(amy, online: false)
        await core.presence.wentOffline(amy)
        #expect(core.delivery.take() == [RecordingDelivery.Sent(event: .presence(Presence(userId: amy, online: false, at: core.clock.now)),
                                                                users: [ben], excluding: nil)])
        _ = cat
    }
}
