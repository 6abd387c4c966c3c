import Foundation
import ParleyStoreSupport
import ParleySync
import TestSupport
import Testing

typealias MemoryStore = ThreadedStore<MemoryBackend>

/// A store on a fresh `MemoryDatabase`, with one writer and one reader.
func makeStore(savepoints: SavepointPolicy, retryRule: WriteRetryRule = .never, batchLimit: Int = 256,
               onSessionDeinit: @escaping @Sendable () -> Void = {}) throws -> (MemoryStore, MemoryDatabase) {
    let database = MemoryDatabase()
    let store = try MemoryStore(backend: MemoryBackend(savepoints: savepoints, retryRule: retryRule),
                                writers: [MemoryWriteSession(database: database, onDeinit: onSessionDeinit)],
                                readers: [database], batchLimit: batchLimit)
    return (store, database)
}

/// Holds the writer thread inside a write until opened, so that the writes queued meanwhile
/// are taken together as the next batch.
final class WriterGate: Sendable {
    private let release = DispatchSemaphore(value: 0)
    private let entered = DispatchSemaphore(value: 0)

    /// Queues the holding write (which sets nothing) and returns once the writer is inside it.
    static func hold(_ store: MemoryStore) async throws -> (WriterGate, Task<Void, any Error>) {
        let gate = WriterGate()
        let task = Task {
            try await store.write { _ in
                gate.entered.signal()
                // Bounded: a test that never opens the gate fails instead of hanging.
                _ = gate.release.wait(timeout: .now() + 30)
            }
        }
        try await eventually("the writer to enter the gate") { gate.entered.wait(timeout: .now()) == .success }
        return (gate, task)
    }

    func open() {
        release.signal()
    }
}

/// What one batch on a fresh store came to.
struct BatchRun {
    /// Each write's outcome, in the order they were queued.
    let results: [Result<Int, any Error>]
    /// The batch's statements (the log after the held write's own commit).
    let log: [String]
    /// The committed rows afterwards.
    let rows: [String: Int]
    /// Commits made for the batch.
    let commits: Int
}

/// Opens a store with `savepoints`, `retryRule` and `batchLimit`, queues `bodies` behind a
/// held writer so that they form one batch, lets it go, and tells what came of it.
func runBatch(savepoints: SavepointPolicy, retryRule: WriteRetryRule = .never, batchLimit: Int = 256,
              _ bodies: [@Sendable (MemoryWriter) throws -> Int]) async throws -> BatchRun {
    let (store, database) = try makeStore(savepoints: savepoints, retryRule: retryRule, batchLimit: batchLimit)
    defer { store.close() }
    let (gate, held) = try await WriterGate.hold(store)
    var tasks: [Task<Int, any Error>] = []
    for (index, body) in bodies.enumerated() {
        tasks.append(Task { try await store.write(body) })
        try await eventually("write \(index) to queue up") { store.queuedWriteCount == index + 1 }
    }
    let logBefore = database.log.count
    let commitsBefore = store.commitCount
    gate.open()
    try await held.value
    var results: [Result<Int, any Error>] = []
    for task in tasks { results.append(await task.result) }
    return BatchRun(results: results, log: Array(database.log.dropFirst(logBefore + 1)), rows: database.rows,
                    commits: store.commitCount - commitsBefore - 1)
}

/// Counts the runs of each of several closures (a closure may run more than once).
final class RunCounts: Sendable {
    private let counts = PThreadMutex([Int: Int]())
    func count(_ index: Int) { counts.withLock { $0[index, default: 0] += 1 } }
    func runs(_ index: Int) -> Int { counts.withLock { $0[index, default: 0] } }
}

/// A write that sets `key` to `value` and returns it; each run is counted as `index` in
/// `runs` when given.
func setting(_ key: String, to value: Int, counted index: Int? = nil,
             in runs: RunCounts? = nil) -> @Sendable (MemoryWriter) throws -> Int {
    { writer in
        if let index { runs?.count(index) }
        writer.set(key, value)
        return value
    }
}
