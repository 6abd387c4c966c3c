import ParleyCore
import ParleyProtocol
import TestSupport
import Testing

/// People by the start of their username or nickname: any case, Chinese nicknames, never the
/// searcher, the unfindable or those who blocked the searcher.
@Suite struct StoreContractUserSearchTests {
    @Test(arguments: StoreBackend.available) func prefixesOfUsernamesAndNicknames(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let people = try await insertUsers(store, ["Alice", "alfred", "bob", "carol", "dan"])
            let (alice, alfred, bob, carol, dan) = (people[0], people[1], people[2], people[3], people[4])
            try await store.write { writer in
                var named = carol
                named.nickname = "王小明"
                try writer.updateUser(named)
                var other = dan
                other.nickname = "Albatross"
                try writer.updateUser(other)
            }
            let find = { (prefix: String, searcher: StoredUser) in
                try await store.read { reader in try reader.searchUsers(prefix: prefix, searcher: searcher.id, limit: 10) }.map(\.id)
            }
            #expect(try await find("al", bob) == [alice.id, alfred.id, dan.id], "usernames any case, and a nickname")
            #expect(try await find("ali", bob) == [alice.id])
            #expect(try await find("王小", bob) == [carol.id])
            #expect(try await find("小明", bob) == [], "a prefix, not a substring")
            #expect(try await find("al", alice) == [alfred.id, dan.id], "never the searcher")
            #expect(try await find("%", bob) == [])
            #expect(try await find("_", bob) == [])
            #expect(try await store.read { try $0.isFindable(alfred.id) })
            try await store.write { writer in
                try writer.setFindable(alfred.id, false)
                try writer.setFindable(alfred.id, false)
                try writer.insertBlock(by: dan.id, target: bob.id, at: 5)
            }
            #expect(try await store.read { try $0.isFindable(alfred.id) } == false)
            #expect(try await find("al", bob) == [alice.id], "alfred is unfindable, dan blocked bob")
            #expect(try await find("al", carol) == [alice.id, dan.id])
            try await store.write { writer in try writer.setFindable(alfred.id, true) }
            #expect(try await find("al", carol) == [alice.id, alfred.id, dan.id])
            let limited = try await store.read { reader in try reader.searchUsers(prefix: "al", searcher: carol.id, limit: 2) }
            #expect(limited.map(\.id) == [alice.id, alfred.id])
        }
    }
}
