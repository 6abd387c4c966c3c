import ParleyCore
import ParleyProtocol
import Testing

@Suite struct StoreContractUserTests {
    @Test(arguments: StoreBackend.available) func insertedUsersReadBackByIDUsernameAndPhone(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let mei = try await store.write { try $0.insertUser(newUser("Mei", phone: "+8613800000000")) }
            let bob = try await store.write { try $0.insertUser(newUser("bob")) }
            #expect(bob.id > mei.id)
            #expect(mei == StoredUser(id: mei.id, username: "Mei", passwordHash: "$argon2id$hash-of-Mei",
                                      phone: "+8613800000000", createdAt: 1_700_000_000_000))

            let (byID, byUsername, byPhone, missing) = try await store.read { reader in
                (try reader.user(id: mei.id), try reader.user(username: "Mei"), try reader.user(phone: "+8613800000000"),
                 try reader.user(id: UserID(9_999)))
            }
            #expect(byID == mei)
            #expect(byUsername == mei)
            #expect(byPhone == mei)
            #expect(missing == nil)
            #expect(try await store.read { try $0.user(phone: "+10000000000") } == nil)
            #expect(try await store.read { try $0.user(username: "nobody") } == nil)
        }
    }

    @Test(arguments: StoreBackend.available) func aUserWithNothingButAnIDRoundTripsItsNulls(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let blank = try await store.write { try $0.insertUser(NewUser(username: nil, passwordHash: nil, phone: nil, createdAt: 5)) }
            let read = try await store.read { try $0.user(id: blank.id) }
            #expect(read == StoredUser(id: blank.id, username: nil, passwordHash: nil, phone: nil, createdAt: 5))
        }
    }

    @Test(arguments: StoreBackend.available) func updateRoundTripsEveryProfileFieldIncludingAwkwardText(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let inserted = try await store.write { try $0.insertUser(NewUser(username: nil, passwordHash: nil,
                                                                              phone: "+4915100000000", createdAt: 42)) }
            var user = inserted
            user.username = "Zoë_99"
            user.passwordHash = "$argon2id$v=19$m=65536,t=2,p=1$c2FsdA$aGFzaA"
            user.nickname = "梅 🌸 \"Mei\""
            user.avatar = "/v1/media/abc123"
            user.signature = "line one\nline two, with 'quotes' and \\backslashes\\ and \u{7}bell"
            user.age = 0
            user.hobbies = ["a,b", "say \"hi\"", "back\\slash", "", "日本語", "[\"not\", \"nested\"]", "🎸", "tab\there", "x"]
            try await store.write { [user] in try $0.updateUser(user) }
            #expect(try await store.read { try $0.user(id: inserted.id) } == user)

            // And back to nothing.
            var cleared = user
            cleared.username = nil
            cleared.passwordHash = nil
            cleared.phone = nil
            cleared.nickname = nil
            cleared.avatar = nil
            cleared.signature = nil
            cleared.age = nil
            cleared.hobbies = []
            try await store.write { [cleared] in try $0.updateUser(cleared) }
            let read = try await store.read { try $0.user(id: inserted.id) }
            #expect(read == cleared)
            #expect(read?.createdAt == 42)
        }
    }

    /// SQLite keeps a NUL (U+0000) in text; PostgreSQL cannot store one. Either way the
    /// text is never silently cut short at it.
    @Test(arguments: StoreBackend.available) func aNulInTextIsKeptOrRefusedButNeverCutShort(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let inserted = try await store.write { try $0.insertUser(newUser("mei")) }
            var changed = inserted
            changed.signature = "before\u{0}after"
            let user = changed
            switch backend {
            case .sqlite, .sqliteMessageLog, .sqliteMessageLogLater:
                try await store.write { [user] in try $0.updateUser(user) }
                #expect(try await store.read { try $0.user(id: user.id) }?.signature == "before\u{0}after")
            case .postgres:
                await #expect(throws: StoreError.self) { try await store.write { [user] in try $0.updateUser(user) } }
                #expect(try await store.read { try $0.user(id: user.id) }?.signature == nil)
            }
        }
    }

    @Test(arguments: StoreBackend.available) func updatingAMissingUserChangesNothing(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let ghost = StoredUser(id: UserID(77), username: "ghost", passwordHash: nil, phone: nil, createdAt: 1)
            try await store.write { try $0.updateUser(ghost) }
            #expect(try await store.read { try $0.user(id: ghost.id) } == nil)
        }
    }

    @Test(arguments: StoreBackend.available) func usernamesAreFoundWithoutRegardToCaseAndKeepTheirOwnCase(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let mei = try await store.write { try $0.insertUser(newUser("Mei")) }
            for spelling in ["Mei", "mei", "MEI", "mEi"] {
                let found = try await store.read { try $0.user(username: spelling) }
                #expect(found?.id == mei.id)
                #expect(found?.username == "Mei")
            }
        }
    }

    @Test(arguments: StoreBackend.available) func aUsernameTakenInAnotherCaseIsAConflict(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            _ = try await store.write { try $0.insertUser(newUser("Mei", phone: "+111")) }
            await #expect(throws: StoreError.conflict("username")) {
                try await store.write { try $0.insertUser(newUser("mei")) }
            }
            await #expect(throws: StoreError.conflict("phone")) {
                try await store.write { try $0.insertUser(newUser("someone", phone: "+111")) }
            }
            await #expect(throws: StoreError.conflict("phone")) {
                try await store.write { try $0.insertUser(NewUser(username: nil, passwordHash: nil, phone: "+111", createdAt: 1)) }
            }
            // Nothing of the refused inserts remains.
            #expect(try await store.read { try $0.user(username: "someone") } == nil)
        }
    }

    @Test(arguments: StoreBackend.available) func updatesThatTakeAnotherUsersUsernameOrPhoneAreConflicts(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            _ = try await store.write { try $0.insertUser(newUser("Mei", phone: "+111")) }
            let bob = try await store.write { try $0.insertUser(newUser("bob", phone: "+222")) }

            var renamed = bob
            renamed.username = "MEI"
            await #expect(throws: StoreError.conflict("username")) {
                try await store.write { [renamed] in try $0.updateUser(renamed) }
            }
            var rephoned = bob
            rephoned.phone = "+111"
            await #expect(throws: StoreError.conflict("phone")) {
                try await store.write { [rephoned] in try $0.updateUser(rephoned) }
            }
            #expect(try await store.read { try $0.user(id: bob.id) } == bob)

            // A user may change the case of their own username.
            var recased = bob
            recased.username = "Bob"
            try await store.write { [recased] in try $0.updateUser(recased) }
            #expect(try await store.read { try $0.user(username: "BOB") }?.username == "Bob")
        }
    }

    @Test(arguments: StoreBackend.available) func aConflictInsideAWriteUndoesOnlyThatStatement(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let outcome = try await store.write { writer -> (StoredUser, StoreError?) in
                let first = try writer.insertUser(newUser("Mei"))
                do {
                    _ = try writer.insertUser(newUser("MEI"))
                    return (first, nil)
                } catch let error as StoreError {
                    return (first, error)
                }
            }
            #expect(outcome.1 == .conflict("username"))
            #expect(try await store.read { try $0.user(id: outcome.0.id) } == outcome.0)
        }
    }

    @Test(arguments: StoreBackend.available) func ofAHundredConcurrentRegistrationsOfOneNameExactlyOneWins(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let results = await withTaskGroup(of: Result<StoredUser, any Error>.self) { group in
                for index in 0..<100 {
                    // Every mix of upper and lower case of "meilin" (64 of them), then again.
                    let name = String("meilin".enumerated().map { offset, letter in
                        index >> offset & 1 == 1 ? Character(letter.uppercased()) : letter
                    })
                    group.addTask {
                        await Result { try await store.write { try $0.insertUser(newUser(name)) } }
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            let winners = results.compactMap { try? $0.get() }
            let conflicts = results.filter {
                if case .failure(let error) = $0 { return error as? StoreError == .conflict("username") }
                return false
            }
            #expect(winners.count == 1)
            #expect(conflicts.count == 99)
            let stored = try await store.read { try $0.user(username: "MeiLin") }
            #expect(stored == winners.first)
        }
    }
}

extension Result where Failure == any Error {
    /// The outcome of an async throwing call.
    init(_ body: () async throws -> Success) async {
        do {
            self = .success(try await body())
        } catch {
            self = .failure(error)
        }
    }
}
