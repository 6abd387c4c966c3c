import Dispatch

/// Runs `work` on a thread outside the test's cooperative pool, still within the test's task
/// (so `#expect` and `#require` inside it count for the test), and waits for it without
/// holding a thread of the pool. For tests whose work blocks (synchronous bench runners,
/// semaphores, blocking sockets): on a two-core machine the pool has two threads, and a
/// blocked one starves every other test in the process, and the server the test talks to
/// when it runs in the same process.
public func onOwnThread<T>(_ work: () throws -> T) async throws -> T {
    try await withTaskExecutorPreference(OwnThreadExecutor()) {
        try work()
    }
}

/// A task executor on a serial dispatch queue of its own (dispatch's worker threads, not the
/// Swift concurrency pool).
private final class OwnThreadExecutor: TaskExecutor {
    private let queue = DispatchQueue(label: "test-own-thread")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
