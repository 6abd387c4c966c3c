import CParleySystem
import Synchronization

/// A fixed set of event loops, one thread each (by default one per core).
public final class EventLoopGroup: Sendable {
    /// The loops, in index order.
    public let loops: [EventLoop]
    private let nextIndex = Atomic<Int>(0)
    private let stopped = Atomic<Bool>(false)

    /// Creates and starts `count` loops (at least one), each keeping at most
    /// `spareWriteRings` empty write-queue rings for its connections to reuse.
    public init(loopCount: Int = EventLoopGroup.coreCount, name: String = "parley-loop",
                spareWriteRings: Int = EventLoop.defaultSpareWriteRings) throws(SystemError) {
        var loops: [EventLoop] = []
        for index in 0..<max(1, loopCount) {
            loops.append(try EventLoop(index: index, spareWriteRings: spareWriteRings))
        }
        self.loops = loops
        for loop in loops { loop.start(name: "\(name)-\(loop.index)") }
    }

    /// The number of online processors.
    public static var coreCount: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

    /// The next loop in round-robin order, for work that has no loop of its own yet.
    public func next() -> EventLoop {
        loops[nextIndex.wrappingAdd(1, ordering: .relaxed).oldValue % loops.count]
    }

    /// Counters summed over every loop.
    public var metrics: NetMetricsSnapshot {
        loops.reduce(NetMetricsSnapshot()) { $0 + $1.metrics.snapshot }
    }

    /// Stops every loop after its current turn and waits for their threads to end.
    /// Must not be called from one of the group's own loops.
    public func shutdown() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        precondition(!loops.contains { $0.inEventLoop }, "EventLoopGroup.shutdown called on one of its loops")
        for loop in loops { loop.requestStop() }
        for loop in loops { loop.join() }
    }

    deinit {
        shutdown()
    }
}
