import CoreTestSupport
import ParleyCore
import ParleyProtocol
import Testing

/// "Last seen": written when a user's last connection closes, to the minute, and shown by
/// their privacy choice (everyone, friends, nobody; nobody is a trade; blocks hide it).
@Suite struct LastSeenServiceTests {
    @Test func goingOfflineKeepsTheMinuteAndThePrivacyChoiceDecidesWhoSeesIt() async throws {
        let core = try CoreFixture()
        let amy = try await core.user("amy"), ben = try await core.user("ben"), cy = try await core.user("cy")
        _ = try await core.befriend(amy, ben)
        let lastSeen = core.conversations.lastSeen

        // Never seen offline: known to be offline, no time.
        #expect(try await lastSeen.lastSeen(of: amy, for: ben) == LastSeen(userId: amy, online: false))
        core.delivery.setOnline(amy, ben, cy)
        await core.presence.cameOnline(amy)
        #expect(try await lastSeen.lastSeen(of: amy, for: ben) == LastSeen(userId: amy, online: true))

        core.clock.advance(milliseconds: 90_500)
        core.delivery.setOnline(amy, online: false)
        await core.presence.wentOffline(amy)
        let minute = core.clock.now - core.clock.now % 60_000
        #expect(try await lastSeen.lastSeen(of: amy, for: ben) == LastSeen(userId: amy, online: false, lastSeenAt: minute))
        // Everyone (the default): a stranger sees it too.
        #expect(try await lastSeen.lastSeen(of: amy, for: cy).lastSeenAt == minute)
        core.clock.advance(milliseconds: 125_000)
        #expect(lastSeen.secondsSince(minute) == (core.clock.now - minute) / 1000)

        // Friends only: the stranger sees nothing, not even online.
        _ = try await core.conversations.setPrivacy(of: amy, PrivacySettings(lastSeen: .friends))
        #expect(try await lastSeen.lastSeen(of: amy, for: cy) == LastSeen(userId: amy))
        #expect(try await lastSeen.lastSeen(of: amy, for: ben).lastSeenAt == minute)
        // Nobody: hidden from friends; the user still sees their own.
        _ = try await core.conversations.setPrivacy(of: amy, PrivacySettings(lastSeen: .nobody))
        #expect(try await lastSeen.lastSeen(of: amy, for: ben) == LastSeen(userId: amy))
        #expect(try await lastSeen.lastSeen(of: amy, for: amy).lastSeenAt == minute)
        // A trade: amy, who shows hers to nobody, sees no one's.
        #expect(try await lastSeen.lastSeen(of: ben, for: amy) == LastSeen(userId: ben))
        #expect(try await lastSeen.lastSeen(of: ben, for: cy) == LastSeen(userId: ben, online: true))

        // A block hides it both ways.
        _ = try await core.conversations.setPrivacy(of: amy, PrivacySettings())
        try await core.social.block(cy, by: ben)
        #expect(try await lastSeen.lastSeen(of: ben, for: cy) == LastSeen(userId: ben))
        #expect(try await lastSeen.lastSeen(of: cy, for: ben) == LastSeen(userId: cy))

        // An unknown user is not found.
        await #expect(throws: ProtocolError.self) { try await lastSeen.lastSeen(of: UserID(rawValue: 999_999), for: amy) }
    }
}
