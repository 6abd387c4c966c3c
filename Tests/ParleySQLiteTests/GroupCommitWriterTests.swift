import Foundation
import ParleyCore
import ParleyProtocol
@testable import ParleySQLite
import Synchronization
import TestSupport
import Testing

/// Writes run without savepoints until one fails after changing rows; then the batch is rolled
/// back and run again with a savepoint each. Counted by how often each closure ran.
@Suite struct GroupCommitWriterTests {
    private struct Refused: Error, Equatable {}

    /// How many times each of three closures ran.
    private final class Runs: Sendable {
        private let first = Atomic<Int>(0)
        private let second = Atomic<Int>(0)
        private let third = Atomic<Int>(0)
        func count(_ index: Int) {
            switch index {
            case 0: first.add(1, ordering: .relaxed)
            case 1: second.add(1, ordering: .relaxed)
            default: third.add(1, ordering: .relaxed)
            }
        }
        var values: [Int] { [first.load(ordering: .relaxed), second.load(ordering: .relaxed), third.load(ordering: .relaxed)] }
    }

    /// Queues `bodies` behind a held writer so that they form one batch, then lets it go.
    private func batch(_ store: SQLiteStore, _ bodies: [@Sendable (StoreWriter) throws -> String])
        async throws -> [Result<String, any Error>] {
        let (gate, held) = try await WriterGate.hold(store)
        var tasks: [Task<String, any Error>] = []
        for (index, body) in bodies.enumerated() {
            tasks.append(Task { try await store.write(body) })
            try await eventually("write \(index) to queue up") { store.queuedWriteCount == index + 1 }
        }
        let before = store.commitCount
        gate.open()
        try await held.value
        var results: [Result<String, any Error>] = []
        for task in tasks { results.append(await task.result) }
        #expect(store.commitCount - before == 2, "the held write's commit, then one for the batch")
        return results
    }

    /// A write that inserts the user `name` and answers with the name, counted as `index`.
    private func inserting(_ name: String, counted index: Int? = nil, in runs: Runs) -> @Sendable (StoreWriter) throws -> String {
        { writer in
            if let index { runs.count(index) }
            return try writer.insertUser(newUser(name)).username ?? ""
        }
    }

    /// The body both tests share: on a fresh store, one batch of "ann" (counted 0), `failing`
    /// (counted 1; it throws `Refused`) and the writes `after` makes with the counter; checks
    /// the first two results and gives `check` the run counts and the results of `after`.
    private func annThenRefusal(_ failing: @escaping @Sendable (StoreWriter) throws -> String,
                                then after: (Runs) -> [@Sendable (StoreWriter) throws -> String],
                                _ check: (SQLiteStore, [Int], [Result<String, any Error>]) async throws -> Void) async throws {
        try await withStore { store, _ in
            let runs = Runs()
            let failingCounted: @Sendable (StoreWriter) throws -> String = { writer in
                runs.count(1)
                return try failing(writer)
            }
            let results = try await batch(store, [inserting("ann", counted: 0, in: runs), failingCounted] + after(runs))
            #expect(try results[0].get() == "ann")
            #expect(throws: Refused.self) { try results[1].get() }
            try await check(store, runs.values, Array(results.dropFirst(2)))
        }
    }

    @Test func aFailureThatChangedNothingRunsNothingTwice() async throws {
        try await annThenRefusal({ writer in
            // Reads, then refuses: nothing to undo.
            _ = try writer.user(username: "ann")
            throw Refused()
        }, then: { runs in [
            { writer in
                runs.count(2)
                // A refused insert is undone by SQLite as a statement.
                _ = try writer.insertUser(newUser("ann"))
                return "never"
            },
            inserting("bob", in: runs),
        ] }) { _, runs, results async throws in
            #expect(runs == [1, 1, 1])
            #expect(throws: StoreError.conflict("username")) { try results[0].get() }
            #expect(try results[1].get() == "bob")
        }
    }

    @Test func aFailureAfterChangesRunsTheBatchAgainIsolated() async throws {
        try await annThenRefusal({ writer in
            _ = try writer.insertUser(newUser("cy"))
            throw Refused()
        }, then: { runs in [inserting("bob", counted: 2, in: runs)] }) { store, runs, results async throws in
            // The first and the failing write ran twice; the last only in the isolated pass.
            #expect(runs == [2, 2, 1])
            #expect(try results[0].get() == "bob")
            try await store.read { reader throws in
                #expect(try reader.user(username: "ann") != nil)
                #expect(try reader.user(username: "bob") != nil)
                #expect(try reader.user(username: "cy") == nil)
            }
        }
    }
}
