import CParleySystem
import Synchronization
import ParleySync

/// A few threads for blocking work (disk, password hashing) so that event loops never block.
/// Results are handed back on the loop that asked. Worker threads keep the pool alive until
/// `shutdown()` is called.
public final class BlockingPool: Sendable {
    private typealias Job = @Sendable () -> Void

    private let queue = PThreadMutex<[Job]>([])
    private let available = Semaphore()
    private let stopped = Atomic<Bool>(false)
    private let threadCount: Int
    private let threads: PThreadMutex<[pthread_t]>

    /// Starts `threadCount` worker threads.
    public init(threadCount: Int = 4, name: String = "parley-pool") {
        self.threadCount = max(1, threadCount)
        threads = PThreadMutex([])
        for index in 0..<self.threadCount {
            let box = Unmanaged.passRetained(PoolThreadStart(pool: self, name: "\(name)-\(index)"))
            var handle = pthread_t()
            let rc = pthread_create(&handle, nil, { raw in
                let start = Unmanaged<PoolThreadStart>.fromOpaque(raw!).takeRetainedValue()
                start.name.withCString { parley_set_thread_name($0) }
                start.pool.work()
                return nil
            }, box.toOpaque())
            precondition(rc == 0, "pthread_create failed: \(rc)")
            threads.withLock { $0.append(handle) }
        }
    }

    /// Runs `work` on a pool thread, then `completion` with its result on `loop`.
    public func submit<T: Sendable>(on loop: EventLoop,
                                    _ work: @escaping @Sendable () throws -> T,
                                    completion: @escaping @Sendable (Result<T, any Error>) -> Void) {
        enqueue {
            let result = Result { try work() }
            loop.execute { completion(result) }
        }
    }

    /// Runs `work` on a pool thread and returns its result to an async caller.
    public func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            enqueue { continuation.resume(with: Result { try work() }) }
        }
    }

    private func enqueue(_ job: @escaping Job) {
        queue.withLock { $0.append(job) }
        available.signal()
    }

    private func work() {
        while true {
            available.wait()
            let job = queue.withLock { jobs -> Job? in jobs.isEmpty ? nil : jobs.removeFirst() }
            guard let job else {
                if stopped.load(ordering: .acquiring) { return }
                continue
            }
            job()
        }
    }

    /// Lets queued jobs finish, then stops the threads and waits for them.
    public func shutdown() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        for _ in 0..<threadCount { available.signal() }
        let handles = threads.withLock { $0 }
        for handle in handles { pthread_join(handle, nil) }
    }
}

private final class PoolThreadStart {
    let pool: BlockingPool
    let name: String
    init(pool: BlockingPool, name: String) {
        self.pool = pool
        self.name = name
    }
}
