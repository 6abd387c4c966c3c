import ParleyCore
import ParleyProtocol
import TestSupport
import Testing

/// When each user was last seen: kept per user, never moved back, read for several at once.
@Suite struct StoreContractLastSeenTests {
    @Test(arguments: StoreBackend.available) func lastSeenIsKeptPerUserAndNeverMovesBack(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let people = try await insertUsers(store, ["ann", "bob", "cy"])
            let (ann, bob, cy) = (people[0].id, people[1].id, people[2].id)
            #expect(try await store.read { reader in try reader.lastSeen(of: [ann, bob]) }.isEmpty)
            try await store.write { writer in
                try writer.saveLastSeen(of: ann, at: 120_000)
                try writer.saveLastSeen(of: bob, at: 60_000)
                // An older write that commits later does not move it back.
                try writer.saveLastSeen(of: ann, at: 60_000)
            }
            #expect(try await store.read { reader in try reader.lastSeen(of: [ann, bob, cy]) } == [ann: 120_000, bob: 60_000])
            try await store.write { writer in try writer.saveLastSeen(of: bob, at: 180_000) }
            #expect(try await store.read { reader in try reader.lastSeen(of: [bob]) } == [bob: 180_000])
            #expect(try await store.read { reader in try reader.lastSeen(of: []) }.isEmpty)
            // A deleted account keeps none, and a late sign-out writes none.
            _ = try await store.write { writer in try writer.eraseUser(bob, at: 200_000, erasingMessages: false) }
            try await store.write { writer in try writer.saveLastSeen(of: bob, at: 240_000) }
            #expect(try await store.read { reader in try reader.lastSeen(of: [ann, bob]) } == [ann: 120_000])
        }
    }
}
