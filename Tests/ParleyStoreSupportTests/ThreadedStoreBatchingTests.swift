import ParleyCore
import ParleyStoreSupport
import Testing

/// Group commit: one transaction and one commit per batch, each caller its own outcome, and
/// a failed write undoing only its own changes under either savepoint policy.
@Suite struct ThreadedStoreBatchingTests {
    @Test(arguments: [SavepointPolicy.afterAFailedChange, .everyWrite])
    func aBatchSharesOneTransactionAndEachCallerGetsItsOwnResult(_ policy: SavepointPolicy) async throws {
        let batch = try await runBatch(savepoints: policy, (0..<5).map { setting("k\($0)", to: $0 * 10) })
        #expect(try batch.results.map { try $0.get() } == [0, 10, 20, 30, 40])
        #expect(batch.commits == 1)
        let expected = policy == .everyWrite
            ? ["begin"] + Array(repeating: ["savepoint", "release"], count: 5).flatMap { $0 } + ["commit"]
            : ["begin", "commit"]
        #expect(batch.log == expected)
        #expect(batch.rows == ["k0": 0, "k1": 10, "k2": 20, "k3": 30, "k4": 40])
    }

    @Test func batchesAreCutAtTheBatchLimit() async throws {
        let batch = try await runBatch(savepoints: .afterAFailedChange, batchLimit: 2, (0..<5).map { setting("k\($0)", to: $0) })
        #expect(try batch.results.map { try $0.get() } == [0, 1, 2, 3, 4])
        #expect(batch.commits == 3)
        #expect(batch.log == ["begin", "commit", "begin", "commit", "begin", "commit"])
    }

    /// One batch of three writes, the middle one refused after changing a row or not, under
    /// `policy`; checks what every batch of this shape must come to (the first and last kept,
    /// the middle one's own error, the committed rows) and returns each closure's runs and
    /// the batch's statements.
    private func batchWithARefusal(_ policy: SavepointPolicy, refusalChanges: Bool) async throws -> (runs: [Int], log: [String]) {
        let runs = RunCounts()
        let batch = try await runBatch(savepoints: policy, [
            setting("a", to: 1, counted: 0, in: runs),
            { writer in
                runs.count(1)
                if refusalChanges { writer.set("doomed", 9) }
                throw MemoryTestError.refused
            },
            setting("b", to: 2, counted: 2, in: runs),
        ])
        #expect(throws: MemoryTestError.refused) { try batch.results[1].get() }
        #expect(try [batch.results[0].get(), batch.results[2].get()] == [1, 2])
        #expect(batch.rows == ["a": 1, "b": 2])
        #expect(batch.commits == 1)
        return ((0..<3).map(runs.runs), batch.log)
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
        let batch = try await runBatch(savepoints: policy, [
            { writer in writer.set("doomed", 9); throw MemoryTestError.refused },
        ])
        #expect(throws: MemoryTestError.refused) { try batch.results[0].get() }
        #expect(batch.log == ["begin", "rollback"])
        #expect(batch.commits == 0)
        #expect(batch.rows.isEmpty)
    }

    @Test(arguments: [
        (SavepointPolicy.everyWrite, ["begin", "savepoint", "rollback to", "savepoint", "release", "commit"]),
        // Without a savepoint, the failed transaction cannot go on: the batch runs again isolated.
        (.afterAFailedChange, ["begin", "rollback", "begin", "savepoint", "rollback to", "savepoint", "release", "commit"]),
    ])
    func aClosureThatSwallowsAnErrorWhichFailedTheTransactionIsRefusedAlone(_ policy: SavepointPolicy,
                                                                           expectedLog: [String]) async throws {
        let batch = try await runBatch(savepoints: policy, [
            { writer in
                writer.set("swallowed", 1)
                try? writer.failTransaction()
                return 1
            },
            setting("kept", to: 2),
        ])
        #expect(throws: StoreError.self) { try batch.results[0].get() }
        #expect(try batch.results[1].get() == 2)
        #expect(batch.log == expectedLog)
        #expect(batch.rows == ["kept": 2])
    }

    @Test func aCommitThatFailsFailsTheWritesThatHadSucceededAndTheRefusedKeepTheirOwnErrors() async throws {
        let batch = try await runBatch(savepoints: .everyWrite, [
            setting("a", to: 1),
            { _ in throw MemoryTestError.refused },
            setting(MemoryDatabase.uncommittable, to: 3),
        ])
        #expect(throws: MemoryDatabaseError.commitRefused) { try batch.results[0].get() }
        #expect(throws: MemoryTestError.refused) { try batch.results[1].get() }
        #expect(throws: MemoryDatabaseError.commitRefused) { try batch.results[2].get() }
        #expect(batch.log.last == "commit")
        #expect(batch.commits == 0)
        #expect(batch.rows.isEmpty)
    }

    @Test func theCompletionPathHearsBackOnTheWriterThreadAfterTheCommit() async throws {
        let (store, database) = try makeStore(savepoints: .afterAFailedChange)
        defer { store.close() }
        let outcome: (value: Int, committed: Int?) = try await withCheckedThrowingContinuation { continuation in
            store.write(setting("sent", to: 7), completion: { result in
                // Runs after the commit: the row is already there for everyone.
                continuation.resume(with: result.map { ($0, database.rows["sent"]) })
            })
        }
        #expect(outcome.value == 7)
        #expect(outcome.committed == 7)
    }
}
