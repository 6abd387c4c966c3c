import ParleyCore
import ParleyProtocol
import TestSupport
import Testing

/// Group commit, savepoint isolation, and what readers see.
@Suite struct StoreContractBatchingTests {
    @Test(arguments: StoreBackend.available) func concurrentWritesShareCommitsAndEachCallerGetsItsOwnResult(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let (gate, held) = try await WriterGate.hold(store)
            let before = store.commitCount
            async let users = withThrowingTaskGroup(of: (Int, StoredUser).self) { group in
                for index in 0..<200 {
                    group.addTask { (index, try await store.write { try $0.insertUser(newUser("user\(index)")) }) }
                }
                return try await group.reduce(into: [Int: StoredUser]()) { $0[$1.0] = $1.1 }
            }
            try await eventually("200 writes to queue up") { store.queuedWriteCount == 200 }
            gate.open()
            try await held.value
            let inserted = try await users

            // The held write's batch, then one batch for all 200 (the bound is 256).
            #expect(store.commitCount - before == 2)
            #expect(inserted.count == 200)
            #expect(Set(inserted.values.map(\.id)).count == 200)
            for (index, user) in inserted {
                #expect(user.username == "user\(index)")
            }
            let stored = try await store.read { reader in try (0..<200).map { try reader.user(username: "USER\($0)") } }
            #expect(stored.map { $0?.id } == (0..<200).map { inserted[$0]?.id })
        }
    }

    @Test(arguments: StoreBackend.available) func aWriteThatThrowsUndoesOnlyItsOwnChangesInASharedBatch(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let (gate, held) = try await WriterGate.hold(store) { writer in
                _ = try writer.insertUser(newUser("held"))
            }
            let before = store.commitCount
            let failing = Task { try await store.write { writer -> StoredUser in
                _ = try writer.insertUser(newUser("doomed"))
                try writer.saveSMSChallenge(SMSChallenge(phone: "+1", codeHash: [1], sentAt: 1, expiresAt: 2, failedAttempts: 0))
                throw TestError(reason: "changed my mind")
            } }
            try await eventually("the failing write to queue up") { store.queuedWriteCount == 1 }
            let succeeding = Task { try await store.write { try $0.insertUser(newUser("kept")) } }
            try await eventually("the second write to queue up") { store.queuedWriteCount == 2 }
            gate.open()
            try await held.value

            await #expect(throws: TestError(reason: "changed my mind")) { try await failing.value }
            let kept = try await succeeding.value
            #expect(store.commitCount - before == 2)
            let (doomed, challenge, readKept, readHeld) = try await store.read { reader in
                (try reader.user(username: "doomed"), try reader.smsChallenge(phone: "+1"),
                 try reader.user(username: "kept"), try reader.user(username: "held"))
            }
            #expect(doomed == nil)
            #expect(challenge == nil)
            #expect(readKept == kept)
            #expect(readHeld != nil)
        }
    }

    @Test(arguments: StoreBackend.available) func readersSeeOnlyCommittedWritesAndNeverWaitForTheWriter(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            // The writer holds an uncommitted insert (and the write lock) while we read.
            let (gate, held) = try await WriterGate.hold(store) { writer in
                _ = try writer.insertUser(newUser("pending"))
            }
            #expect(try await store.read { try $0.user(username: "pending") } == nil)
            gate.open()
            try await held.value
            #expect(try await store.read { try $0.user(username: "pending") } != nil)
        }
    }

    @Test(arguments: StoreBackend.available) func aWriteSeesItsOwnChangesBeforeCommitting(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let seen = try await store.write { writer in
                let user = try writer.insertUser(newUser("mei"))
                return try writer.user(username: "MEI") == user
            }
            #expect(seen)
        }
    }

    @Test(arguments: StoreBackend.available) func errorsThrownByClosuresComeBackUnchanged(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            await #expect(throws: TestError(reason: "read")) {
                try await store.read { _ -> Int in throw TestError(reason: "read") }
            }
            await #expect(throws: TestError(reason: "write")) {
                try await store.write { _ -> Int in throw TestError(reason: "write") }
            }
        }
    }

    @Test(arguments: StoreBackend.available) func aReadCannotWrite(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let isWriter = try await store.read { reader in reader is any StoreWriter }
            #expect(!isWriter)
        }
    }

    @Test(arguments: StoreBackend.available) func manyReadsAndWritesInterleave(_ backend: StoreBackend) async throws {
        try await withStore(backend, readers: 3) { store in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<100 {
                    group.addTask {
                        let user = try await store.write { try $0.insertUser(newUser("u\(index)")) }
                        let read = try await store.read { try $0.user(id: user.id) }
                        #expect(read == user)
                    }
                    group.addTask {
                        _ = try await store.read { try $0.user(username: "u\(index / 2)") }
                    }
                }
                try await group.waitForAll()
            }
            #expect(store.commitCount <= 100)
        }
    }
}
