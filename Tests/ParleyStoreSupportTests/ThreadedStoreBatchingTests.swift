import ParleyCore
import ParleyStoreSupport
import Testing

/// Group commit: one transaction and one commit per batch, each caller its own outcome, and
/// a failed write undoing only its own changes under either savepoint policy.
@Suite struct ThreadedStoreBatchingTests {
    @Test(arguments: [SavepointPolicy.afterAFailedChange, .everyWrite])
    func aBatchSharesOneTransactionAndEachCallerGetsItsOwnResult(_ policy: SavepointPolicy) async throws {
        let (store, database) = try makeStore(savepoints: policy)
        defer { store.close() }
        let before = store.commitCount
        let (results, log) = try await runBatch(store, database, (0..<5).map { setting("k\($0)", to: $0 * 10) })
        #expect(try results.map { try $0.get() } == [0, 10, 20, 30, 40])
        #expect(store.commitCount - before == 2, "the held write's commit, then one for the batch")
        let expected = policy == .everyWrite
            ? ["begin"] + Array(repeating: ["savepoint", "release"], count: 5).flatMap { $0 } + ["commit"]
            : ["begin", "commit"]
        #expect(log == expected)
        #expect(database.rows == ["k0": 0, "k1": 10, "k2": 20, "k3": 30, "k4": 40])
    }

    @Test func batchesAreCutAtTheBatchLimit() async throws {
        let (store, database) = try makeStore(savepoints: .afterAFailedChange, batchLimit: 2)
        defer { store.close() }
        let (results, log) = try await runBatch(store, database, (0..<5).map { setting("k\($0)", to: $0) })
        #expect(try results.map { try $0.get() } == [0, 1, 2, 3, 4])
        #expect(log == ["begin", "commit", "begin", "commit", "begin", "commit"])
    }

    /// One batch of three writes, the middle one refused after changing a row or not, under
    /// `policy`; checks what every batch of this shape must come to (the first and last kept,
    /// the middle one's own error, the committed rows) and returns each closure's runs and
    /// the batch's statements.
    private func batchWithARefusal(_ policy: SavepointPolicy, refusalChanges: Bool) async throws -> (runs: [Int], log: [String]) {
        let (store, database) = try makeStore(savepoints: policy)
        defer { store.close() }
        let runs = RunCounts()
        let (results, log) = try await runBatch(store, database, [
            setting("a", to: 1, counted: 0, in: runs),
            { writer in
                runs.count(1)
                if refusalChanges { writer.set("doomed", 9) }
                throw MemoryTestError.refused
            },
            setting("b", to: 2, counted: 2, in: runs),
        ])
        #expect(throws: MemoryTestError.refused) { try results[1].get() }
        #expect(try [results[0].get(), results[2].get()] == [1, 2])
        #expect(database.rows == ["a": 1, "b": 2])
        return ((0..<3).map(runs.runs), log)
    }

    @Test func withoutSavepointsAFailureThatChangedNothingIsNotRunAgain() async throws {
        let (runs, log) = try await batchWithARefusal(.afterAFailedChange, refusalChanges: false)
        #expect(runs == [1, 1, 1])
        #expect(log == ["begin", "commit"])
    }

    @Test func withoutSavepointsAFailureAfterChangesRunsTheBatchAgainIsolated() async throws {
        let (runs, log) = try await batchWithARefusal(.afterAFailedChange, refusalChanges: true)
        // The last write had not run when the failure stopped the first pass.
        #expect(runs == [2, 2, 1])
        #expect(log == ["begin", "rollback", "begin",
                        "savepoint", "release", "savepoint", "rollback to", "savepoint", "release", "commit"])
    }

    @Test(arguments: [false, true])
    func withASavepointPerWriteAFailureIsUndoneInPlace(_ refusalChanges: Bool) async throws {
        let (runs, log) = try await batchWithARefusal(.everyWrite, refusalChanges: refusalChanges)
        #expect(runs == [1, 1, 1])
        #expect(log == ["begin", "savepoint", "release", "savepoint", "rollback to", "savepoint", "release", "commit"])
    }

    @Test(arguments: [SavepointPolicy.afterAFailedChange, .everyWrite])
    func aWriteAloneThatFailsIsRolledBackWithoutASavepointOrACommit(_ policy: SavepointPolicy) async throws {
        let (store, database) = try makeStore(savepoints: policy)
        defer { store.close() }
        let before = store.commitCount
        let (results, log) = try await runBatch(store, database, [
            { writer in writer.set("doomed", 9); throw MemoryTestError.refused },
        ])
        #expect(throws: MemoryTestError.refused) { try results[0].get() }
        #expect(log == ["begin", "rollback"])
        #expect(store.commitCount - before == 1, "only the held write's commit")
        #expect(database.rows["doomed"] == nil)
    }

    @Test(arguments: [
        (SavepointPolicy.everyWrite, ["begin", "savepoint", "rollback to", "savepoint", "release", "commit"]),
        // Without a savepoint, the failed transaction cannot go on: the batch runs again isolated.
        (.afterAFailedChange, ["begin", "rollback", "begin", "savepoint", "rollback to", "savepoint", "release", "commit"]),
    ])
    func aClosureThatSwallowsAnErrorWhichFailedTheTransactionIsRefusedAlone(_ policy: SavepointPolicy,
                                                                           expectedLog: [String]) async throws {
        let (store, database) = try makeStore(savepoints: policy)
        defer { store.close() }
        let (results, log) = try await runBatch(store, database, [
            { writer in
                writer.set("swallowed", 1)
                try? writer.failTransaction()
                return 1
            },
            setting("kept", to: 2),
        ])
        #expect(throws: StoreError.self) { try results[0].get() }
        #expect(try results[1].get() == 2)
        #expect(log == expectedLog)
        #expect(database.rows == ["kept": 2])
    }

    @Test func aCommitThatFailsFailsTheWritesThatHadSucceededAndTheRefusedKeepTheirOwnErrors() async throws {
        let (store, database) = try makeStore(savepoints: .everyWrite)
        defer { store.close() }
        let before = store.commitCount
        let (results, log) = try await runBatch(store, database, [
            setting("a", to: 1),
            { _ in throw MemoryTestError.refused },
            { writer in writer.set(MemoryDatabase.uncommittable, 3); return 3 },
        ])
        #expect(throws: MemoryDatabaseError.commitRefused) { try results[0].get() }
        #expect(throws: MemoryTestError.refused) { try results[1].get() }
        #expect(throws: MemoryDatabaseError.commitRefused) { try results[2].get() }
        #expect(log.last == "commit")
        #expect(store.commitCount - before == 1, "only the held write's commit")
        #expect(database.rows.isEmpty)
    }

    @Test func theCompletionPathHearsBackOnTheWriterThreadAfterTheCommit() async throws {
        let (store, database) = try makeStore(savepoints: .afterAFailedChange)
        defer { store.close() }
        let outcome: (value: Int, committed: Int?) = try await withCheckedThrowingContinuation { continuation in
            store.write({ writer in
                writer.set("sent", 7)
                return 7
            }, completion: { result in
                // Runs after the commit: the row is already there for everyone.
                continuation.resume(with: result.map { ($0, database.rows["sent"]) })
            })
        }
        #expect(outcome.value == 7)
        #expect(outcome.committed == 7)
    }
}
