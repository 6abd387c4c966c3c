import ParleyCore
import ParleyStoreSupport
import ParleySync
import TestSupport
import Testing

/// Running until `close()`: queued work finishes, later work is refused, and a store dropped
/// without `close()` still stops its threads.
@Suite struct ThreadedStoreLifecycleTests {
    @Test func closeLetsQueuedWritesFinishThenRefusesWork() async throws {
        let (store, database) = try makeStore(savepoints: .afterAFailedChange)
        let (gate, held) = try await WriterGate.hold(store)
        let queued = (0..<3).map { index in
            Task { try await store.write(setting("k\(index)", to: index)) }
        }
        try await eventually("3 writes to queue up") { store.queuedWriteCount == 3 }
        // close() blocks until the queue is drained, so it runs off this task's thread.
        let closing = Task.detached { store.close() }
        gate.open()
        try await held.value
        await closing.value
        for (index, task) in queued.enumerated() {
            #expect(try await task.value == index)
        }
        #expect(database.rows == ["k0": 0, "k1": 1, "k2": 2])

        await #expect(throws: StoreError.failure("write: the store is closed")) {
            try await store.write { writer in writer.set("late", 1) }
        }
        await #expect(throws: StoreError.failure("read: the store is closed")) {
            try await store.read { $0.count }
        }
        let refusedAtOnce = PThreadMutex(false)
        store.write({ _ in 1 }, completion: { result in
            if case .failure(StoreError.failure("write: the store is closed")) = result {
                refusedAtOnce.withLock { $0 = true }
            }
        })
        #expect(refusedAtOnce.withLock { $0 })
        store.close()
        #expect(database.rows["late"] == nil)
    }

    @Test func aStoreWithoutAWriterOrAReaderIsRefused() {
        let database = MemoryDatabase()
        let backend = MemoryBackend(savepoints: .everyWrite, retryRule: .never)
        #expect(throws: StoreError.self) {
            try MemoryStore(backend: backend, writers: [], readers: [database], batchLimit: 1)
        }
        #expect(throws: StoreError.self) {
            try MemoryStore(backend: backend, writers: [MemoryWriteSession(database: database)], readers: [], batchLimit: 1)
        }
    }

    @Test func readsSeeWhatWasCommitted() async throws {
        let (store, _) = try makeStore(savepoints: .everyWrite)
        defer { store.close() }
        try await store.write { writer in writer.set("a", 1) }
        #expect(try await store.read { $0["a"] } == 1)
    }

    @Test func aStoreDroppedWithoutCloseStopsItsThreads() async throws {
        let sessionFreed = PThreadMutex(false)
        do {
            let (store, _) = try makeStore(savepoints: .afterAFailedChange) {
                sessionFreed.withLock { $0 = true }
            }
            try await store.write { writer in writer.set("a", 1) }
        }
        // The writer thread ends when the queue closes, and frees its session with it.
        try await eventually("the writer thread to end") { sessionFreed.withLock { $0 } }
    }
}
