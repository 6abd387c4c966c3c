import Foundation
import ParleyCore
@testable import ParleyPostgres
import ParleyProtocol
import ParleySync
import TestSupport
import Testing

/// What only PostgreSQL has: several stores ("servers") on one database, at once.
@Suite(.enabled(if: PostgresTestServer.isAvailable, PostgresTestServer.unavailableReason))
struct PostgresStoreClusterTests {
    private func text(_ conversation: ConversationID, from sender: UserID, clientID: String) -> NewMessage {
        NewMessage(conversationID: conversation, sender: sender, clientID: clientID, kind: .text, text: clientID, createdAt: 1_000)
    }

    /// Two stores with two writers each append to two conversations at once. Half of the
    /// writes touch both conversations, in opposite orders on the two nodes, so their batches
    /// deadlock now and then and must be retried. Every message gets a distinct, gapless
    /// sequence number in its conversation.
    @Test func twoNodesAppendingConcurrentlyGetGaplessSequencesWithoutDuplicates() async throws {
        try await withPostgresDatabase { database in
            let nodes = [try PostgresStore(connectionString: database, readers: 1, writers: 2, batchLimit: 16),
                         try PostgresStore(connectionString: database, readers: 1, writers: 2, batchLimit: 16)]
            defer { for node in nodes { node.close() } }
            let people = try await insertUsers(nodes[0], ["ann", "bob", "cat"])
            let first = try await insertDirectConversation(nodes[0], people[0].id, people[1].id).id
            let second = try await insertDirectConversation(nodes[1], people[1].id, people[2].id).id
            let perNode = 120

            let sent = try await withThrowingTaskGroup(of: [Message].self) { group in
                for (nodeIndex, node) in nodes.enumerated() {
                    for index in 0..<perNode {
                        let sender = people[nodeIndex].id
                        let order = nodeIndex == 0 ? [first, second] : [second, first]
                        let both = index.isMultiple(of: 2)
                        group.addTask {
                            try await node.write { writer in
                                try (both ? order : [order[0]]).map { conversation in
                                    try writer.appendMessage(self.text(conversation, from: sender,
                                                                       clientID: "n\(nodeIndex)-\(index)-\(conversation)"))
                                }
                            }
                        }
                    }
                }
                return try await group.reduce(into: [Message]()) { $0 += $1 }
            }

            // Node 0 sends 120 to `first` and 60 to `second`; node 1 the other way round.
            for conversation in [first, second] {
                let mine = sent.filter { $0.conversationId == conversation }
                #expect(mine.count == perNode + perNode / 2)
                #expect(mine.map(\.seq).sorted() == Array(1...Int64(mine.count)))
                let stored = try await nodes[1].read { try $0.messages(in: conversation, after: 0, limit: 1_000) }
                #expect(stored.map(\.seq) == Array(1...Int64(mine.count)))
                #expect(Set(stored.map(\.id)) == Set(mine.map(\.id)))
                #expect(try await nodes[0].read { try $0.conversation(id: conversation) }?.lastSeq == Int64(mine.count))
            }
            #expect(Set(sent.map(\.id)).count == sent.count)
        }
    }

    /// Two nodes each append to one conversation and then, once the other has too, to the
    /// other's: a certain deadlock. PostgreSQL fails one transaction; its write runs again
    /// and both succeed, with gapless sequences.
    @Test func aDeadlockBetweenTwoNodesIsRetriedAndBothWritesSucceed() async throws {
        try await withPostgresDatabase { database in
            let nodes = [try PostgresStore(connectionString: database, readers: 1, writers: 1),
                         try PostgresStore(connectionString: database, readers: 1, writers: 1)]
            defer { for node in nodes { node.close() } }
            let people = try await insertUsers(nodes[0], ["ann", "bob", "cat"])
            let first = try await insertDirectConversation(nodes[0], people[0].id, people[1].id).id
            let second = try await insertDirectConversation(nodes[0], people[1].id, people[2].id).id
            let holding = [DispatchSemaphore(value: 0), DispatchSemaphore(value: 0)]
            let runs = RunCounter()

            let results = try await withThrowingTaskGroup(of: [Message].self) { group in
                for (index, node) in nodes.enumerated() {
                    let order = index == 0 ? [first, second] : [second, first]
                    group.addTask {
                        try await node.write { writer in
                            runs.increment()
                            let mine = try writer.appendMessage(self.text(order[0], from: people[index].id, clientID: "one-\(index)"))
                            // Wait (on the store's own thread) until the other node holds its row too;
                            // a rerun finds the signal already given, or waits briefly.
                            holding[index].signal()
                            _ = holding[1 - index].wait(timeout: .now() + 2)
                            holding[1 - index].signal()
                            let theirs = try writer.appendMessage(self.text(order[1], from: people[index].id, clientID: "two-\(index)"))
                            return [mine, theirs]
                        }
                    }
                }
                return try await group.reduce(into: [Message]()) { $0 += $1 }
            }
            #expect(results.count == 4)
            #expect(runs.value >= 3, "one of the two transactions was chosen as the deadlock victim and run again")
            for conversation in [first, second] {
                let stored = try await nodes[1].read { try $0.messages(in: conversation, after: 0, limit: 10) }
                #expect(stored.map(\.seq) == [1, 2])
            }
        }
    }

    /// The same client id sent through two nodes at once is stored once: the other send is
    /// the conflict the idempotent-send path handles.
    @Test func aClientIDRacedThroughTwoNodesIsStoredOnce() async throws {
        try await withPostgresDatabase { database in
            let nodes = [try PostgresStore(connectionString: database, writers: 1),
                         try PostgresStore(connectionString: database, writers: 1)]
            defer { for node in nodes { node.close() } }
            let people = try await insertUsers(nodes[0], ["ann", "bob"])
            let conversation = try await insertDirectConversation(nodes[0], people[0].id, people[1].id).id
            for round in 0..<20 {
                let outcomes = await withTaskGroup(of: Result<Message, any Error>.self) { group in
                    for node in nodes {
                        group.addTask {
                            await Result { () async throws -> Message in
                                try await node.write { try $0.appendMessage(self.text(conversation, from: people[0].id, clientID: "r\(round)")) }
                            }
                        }
                    }
                    return await group.reduce(into: []) { $0.append($1) }
                }
                let stored = outcomes.compactMap { try? $0.get() }
                #expect(stored.count == 1)
                for case .failure(let error) in outcomes {
                    #expect(error as? StoreError == .conflict("client_id"))
                }
            }
            let all = try await nodes[1].read { try $0.messages(in: conversation, after: 0, limit: 100) }
            #expect(all.map(\.seq) == Array(1...20))
        }
    }

    /// Several servers starting at once on an empty database: one migrates, the others wait
    /// for it and find nothing to do.
    @Test func concurrentStartsMigrateOnce() async throws {
        try await withPostgresDatabase { database in
            let stores = try await withThrowingTaskGroup(of: PostgresStore.self) { group in
                for _ in 0..<4 {
                    group.addTask { try PostgresStore(connectionString: database, readers: 1, writers: 1) }
                }
                return try await group.reduce(into: [PostgresStore]()) { $0.append($1) }
            }
            defer { for store in stores { store.close() } }
            let applied = stores.map(\.appliedMigrations)
            let every = PostgresStoreSchema.migrator.migrations.map(\.version)
            #expect(every.count >= 3)
            #expect(applied.filter { $0 == every }.count == 1)
            #expect(applied.filter(\.isEmpty).count == 3)

            let versions = try PostgresConnection(connectionString: database)
                .query("SELECT version FROM schema_version ORDER BY version", []).map { try $0.int64(0) }
            #expect(versions == every.map(Int64.init))
            // And the schema works from every one of them.
            let users = try await insertUsers(stores[3], ["ann"])
            #expect(try await stores[0].read { try $0.user(username: "ANN") } == users[0])
        }
    }

    @Test func aDatabaseFromANewerBuildIsRefused() async throws {
        try await withPostgresDatabase { database in
            try PostgresStore(connectionString: database, readers: 1, writers: 1).close()
            try PostgresConnection(connectionString: database).execute("INSERT INTO schema_version (version) VALUES (99)")
            let error = try #require(throws: StoreError.self) { try PostgresStore(connectionString: database) }
            guard case .failure(let message) = error else {
                Issue.record("expected a failure, got \(error)")
                return
            }
            #expect(message.contains("99"))
        }
    }

    @Test func anUnreachableServerIsAClearFailure() throws {
        let error = try #require(throws: StoreError.self) {
            try PostgresStore(connectionString: "postgres://parley@127.0.0.1:1/none?connect_timeout=2")
        }
        guard case .failure(let message) = error else {
            Issue.record("expected a failure, got \(error)")
            return
        }
        #expect(message.contains("cannot connect"))
    }

    /// A closure that catches a database error and carries on cannot commit what follows
    /// (PostgreSQL has failed the transaction): it is told so, and the other writes of its
    /// batch are kept.
    @Test func aClosureThatSwallowsADatabaseErrorFailsAloneInItsBatch() async throws {
        try await withPostgresDatabase { database in
            let store = try PostgresStore(connectionString: database, readers: 1, writers: 1)
            defer { store.close() }
            let (gate, held) = try await WriterGate.hold(store)
            let before = store.commitCount
            let swallowing = Task {
                try await store.write { writer -> StoredUser in
                    // An unknown owner: the foreign key fails the statement (no savepoint here).
                    try? writer.insertMedia(StoredMedia(id: "m", ownerID: UserID(9_999), type: .png, width: 1, height: 1,
                                                        size: 1, createdAt: 1))
                    return try writer.insertUser(newUser("after"))
                }
            }
            try await eventually("the swallowing write to queue up") { store.queuedWriteCount == 1 }
            let kept = Task { try await store.write { try $0.insertUser(newUser("kept")) } }
            try await eventually("the second write to queue up") { store.queuedWriteCount == 2 }
            gate.open()
            try await held.value

            await #expect(throws: StoreError.self) { try await swallowing.value }
            let keptUser = try await kept.value
            #expect(store.commitCount - before == 2)
            #expect(try await store.read { try $0.user(username: "after") } == nil)
            #expect(try await store.read { try $0.user(username: "kept") } == keptUser)
        }
    }

    /// A connection the server drops is made again: after the server cut every connection
    /// of the store, work succeeds again (the work that met the cut may fail, and says so).
    @Test func connectionsCutByTheServerAreMadeAgain() async throws {
        try await withPostgresDatabase { database in
            let store = try PostgresStore(connectionString: database, readers: 1, writers: 1)
            defer { store.close() }
            let ann = try await insertUsers(store, ["ann"])[0]
            let name = String(database.split(separator: "/").last ?? "")
            let admin = try PostgresConnection(connectionString: database)
            let cut = try admin.query("""
                SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = $1 AND pid != pg_backend_pid()
                """, [.text(name)]).row(0).int64(0)
            #expect(cut == 2)

            // The first use of each connection finds it dead; the next reconnects.
            _ = try? await store.read { try $0.user(id: ann.id) }
            _ = try? await store.write { try $0.insertUser(newUser("first-after-cut")) }
            #expect(try await store.read { try $0.user(id: ann.id) } == ann)
            let bob = try await store.write { try $0.insertUser(newUser("bob")) }
            #expect(try await store.read { try $0.user(username: "bob") } == bob)
        }
    }
}

/// Counts runs of a write closure, which may run more than once.
private final class RunCounter: Sendable {
    private let count = PThreadMutex(0)
    var value: Int { count.withLock { $0 } }
    func increment() { count.withLock { $0 += 1 } }
}
