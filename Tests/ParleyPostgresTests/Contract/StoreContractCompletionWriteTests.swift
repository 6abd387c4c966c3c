import Foundation
import ParleyCore
import ParleyProtocol
import Synchronization
import TestSupport
import Testing

/// `write(_:completion:)`, the engine's write under the async `write` (both stores have it):
/// the same batch and commit, and the caller hears only after the commit, with its own
/// outcome.
@Suite struct StoreContractCompletionWriteTests {
    private struct Refused: Error, Equatable {}

    @Test(arguments: StoreBackend.available)
    func completionsComeAfterTheBatchCommitsWithEachWritesOwnOutcome(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let (outcomes, sink) = AsyncStream<(Int, Result<String, any Error>)>.makeStream()
            let heard = Atomic<Int>(0)
            let (gate, held) = try await WriterGate.hold(store)
            store.write({ writer in try writer.insertUser(newUser("ann")).username ?? "" }) { result in
                heard.add(1, ordering: .relaxed)
                sink.yield((0, result))
            }
            store.write({ _ -> String in throw Refused() }) { result in
                heard.add(1, ordering: .relaxed)
                sink.yield((1, result))
            }
            try await eventually("both writes to queue up") { store.queuedWriteCount == 2 }
            let heardEarly = heard.load(ordering: .relaxed)
            #expect(heardEarly == 0, "nobody hears before their batch ran and committed")
            let before = store.commitCount
            gate.open()
            try await held.value
            var results: [Int: Result<String, any Error>] = [:]
            for await (index, result) in outcomes {
                results[index] = result
                if results.count == 2 { break }
            }
            #expect(store.commitCount - before == 2, "the held write's commit, then one shared by both")
            #expect(try results[0]?.get() == "ann")
            #expect(throws: Refused.self) { try results[1]?.get() }
            #expect(try await store.read { try $0.user(username: "ann") }?.username == "ann", "committed before the completion")
        }
    }

    @Test(arguments: StoreBackend.available)
    func aClosedStoreFailsTheWriteAtOnceWithoutRunningIt(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            store.close()
            let ran = Atomic<Bool>(false)
            let failed = Atomic<Bool>(false)
            store.write({ _ in ran.store(true, ordering: .relaxed) }) { result in
                if case .failure = result { failed.store(true, ordering: .relaxed) }
            }
            let toldAtOnce = failed.load(ordering: .relaxed), bodyRan = ran.load(ordering: .relaxed)
            #expect(toldAtOnce, "told at once, on the caller's thread")
            #expect(!bodyRan)
        }
    }
}
