import ParleyCore
import ParleyStoreSupport
import Testing

/// What the engine does when the database loses a transaction: by itself (the writes run so
/// far fail, the rest go on in a new one), or to another writer (the backend's retry rule).
@Suite struct ThreadedStoreRetryTests {
    private static let threeQuickRuns = WriteRetryRule(maxAttempts: 3, firstPause: .microseconds(100))

    @Test func aTransactionTheDatabaseRolledBackFailsItsWritesAndTheRestGoOnInANewOne() async throws {
        let batch = try await runBatch(savepoints: .afterAFailedChange, [
            setting("a", to: 1),
            { writer in try writer.loseTransaction(); return 2 },
            setting("c", to: 3),
        ])
        // The first write succeeded, but the database threw its changes away.
        #expect(throws: StoreError.self) { try batch.results[0].get() }
        #expect(throws: MemoryTestError.ioError) { try batch.results[1].get() }
        #expect(try batch.results[2].get() == 3)
        #expect(batch.log == ["begin", "begin", "commit"])
        #expect(batch.rows == ["c": 3])
    }

    @Test func aLostRaceInABatchRunsEachWriteAgainInATransactionOfItsOwn() async throws {
        let runs = RunCounts()
        let batch = try await runBatch(savepoints: .everyWrite, retryRule: Self.threeQuickRuns, [
            setting("a", to: 1, counted: 0, in: runs),
            { writer in
                runs.count(1)
                // Loses the race on its first run only; the closure catching it changes nothing.
                if runs.runs(1) == 1 { try? writer.loseDeadlock() }
                writer.set("b", 2)
                return 2
            },
        ])
        #expect(try batch.results.map { try $0.get() } == [1, 2])
        #expect((0..<2).map(runs.runs) == [2, 2])
        #expect(batch.log == ["begin", "savepoint", "release", "savepoint", "rollback",
                              "begin", "commit", "begin", "commit"])
        #expect(batch.commits == 2)
        #expect(batch.rows == ["a": 1, "b": 2])
    }

    /// A write alone that loses every race runs as often as the rule allows (once without
    /// one), then fails with the last race's error.
    @Test(arguments: [(threeQuickRuns, 3), (WriteRetryRule.never, 1)])
    func aWriteThatKeepsLosingGivesUpAfterTheRulesAttempts(_ rule: WriteRetryRule, expectedRuns: Int) async throws {
        let (store, _) = try makeStore(savepoints: .everyWrite, retryRule: rule)
        defer { store.close() }
        let runs = RunCounts()
        await #expect(throws: MemoryDatabaseError.deadlock) {
            try await store.write { writer -> Int in
                runs.count(0)
                try writer.loseDeadlock()
                return 0
            }
        }
        #expect(runs.runs(0) == expectedRuns)
    }

    @Test func pausesDoubleWithJitterAndEndAtTheLastAttempt() {
        let rule = WriteRetryRule(maxAttempts: 4, firstPause: .milliseconds(1))
        // The random part at its smallest and its largest.
        #expect(rule.pause(after: 1) { _ in 0 } == .milliseconds(1))
        #expect(rule.pause(after: 2) { _ in 0 } == .milliseconds(2))
        #expect(rule.pause(after: 3) { $0 - 1 } == .microseconds(7_999))
        #expect(rule.pause(after: 4) == nil)
        #expect(WriteRetryRule.never.pause(after: 1) == nil)
    }
}
