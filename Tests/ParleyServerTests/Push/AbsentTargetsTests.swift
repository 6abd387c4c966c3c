import ParleyProtocol
import Testing
@testable import ParleyServer

@Suite struct AbsentTargetsTests {
    @Test func entriesLastTheirLifetimeAndARegistrationEndsThem() {
        let absent = AbsentTargets(lifetime: 1_000, capacity: 10)
        let mei = UserID(1), bob = UserID(2)
        #expect(!absent.contains(mei, now: 0))
        absent.remember(mei, now: 0)
        absent.remember(bob, now: 0)
        #expect(absent.contains(mei, now: 999))
        #expect(!absent.contains(mei, now: 1_000))
        absent.forget(bob)
        #expect(!absent.contains(bob, now: 1))
    }

    @Test func staysWithinItsCapacity() {
        let absent = AbsentTargets(lifetime: 1_000, capacity: 3)
        for id in Int64(1)...3 { absent.remember(UserID(id), now: 0) }
        // Full of live entries: the fourth starts a new table rather than growing it.
        absent.remember(UserID(4), now: 1)
        #expect(absent.contains(UserID(4), now: 2))
        #expect(!absent.contains(UserID(1), now: 2))
        // Expired entries make room first.
        absent.remember(UserID(5), now: 2_000)
        absent.remember(UserID(6), now: 2_000)
        absent.remember(UserID(7), now: 2_000)
        #expect(absent.contains(UserID(5), now: 2_001) && absent.contains(UserID(7), now: 2_001))
    }
}
