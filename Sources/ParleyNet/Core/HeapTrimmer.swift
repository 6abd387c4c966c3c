import CParleySystem
import Synchronization

/// Gives memory freed in bursts back to the system. glibc returns free memory to the system
/// only from the top of a heap; memory freed between long-lived allocations (an idle XMPP
/// stream's parser, freed between the sessions' own objects) stays counted in the process
/// until `malloc_trim` walks the heaps. The walk takes each heap's lock for a moment, so it
/// runs on its own thread, only after at least `threshold` bytes were reported freed since
/// the last one, and at most once per `interval`.
///
/// One per process (`shared`): the heaps it trims are the process's.
public final class HeapTrimmer: Sendable {
    /// Bytes reported freed since the last trim that start one: 256 KiB.
    public static let threshold = 256 * 1024
    /// The shortest time between two trims, which also gathers the frees of a burst into one.
    public static let interval: Duration = .seconds(1)

    /// The process's trimmer; its thread starts on first use.
    public static let shared = HeapTrimmer()

    private let pending = Atomic<Int>(0)
    private let reported = Atomic<Int>(0)
    private let wake = Semaphore()
    private let trims = Atomic<Int>(0)

    private init() {
        let box = Unmanaged.passRetained(self)
        var handle = pthread_t()
        let rc = pthread_create(&handle, nil, { raw in
            let trimmer = Unmanaged<HeapTrimmer>.fromOpaque(raw!).takeRetainedValue()
            "parley-trim".withCString { parley_set_thread_name($0) }
            trimmer.run()
            return nil
        }, box.toOpaque())
        precondition(rc == 0, "pthread_create failed: \(rc)")
        pthread_detach(handle)
    }

    /// Notes that about `bytes` were freed; the trim thread wakes when they add up.
    public func freed(_ bytes: Int) {
        reported.add(bytes, ordering: .relaxed)
        let total = pending.add(bytes, ordering: .relaxed).newValue
        if total >= Self.threshold && total - bytes < Self.threshold { wake.signal() }
    }

    /// Trims done so far (for tests and metrics).
    public var trimCount: Int { trims.load(ordering: .relaxed) }

    /// Every byte reported through `freed(_:)` since the process started (for tests).
    public var reportedBytes: Int { reported.load(ordering: .relaxed) }

    private func run() {
        let pause = UInt32(Self.interval.components.seconds * 1_000_000)
        while true {
            wake.wait()
            // Frees of the same burst arrive meanwhile and are covered by this trim.
            usleep(pause)
            pending.store(0, ordering: .relaxed)
            _ = parley_trim_heap()
            trims.add(1, ordering: .relaxed)
        }
    }
}
