import Foundation
import ParleySync
import Testing
@testable import ParleyNet

/// A thread that hands a loop a batch of work holding its wake-ups back (`DeferredWakeups`,
/// as a store writer resuming a commit's callers does) wakes the loop once the batch ends,
/// and the loop then runs the whole batch, in order.
@Suite struct EventLoopDeferredWakeTests {
    @Test func workQueuedInABatchRunsOnceTheBatchEnds() throws {
        let group = try EventLoopGroup(loopCount: 1)
        defer { group.shutdown() }
        let loop = group.loops[0]
        let ran = Locked<[Int]>([])
        let ranDuringBatch = DeferredWakeups.collect { () -> [Int] in
            for index in 0..<5 { loop.execute { ran.mutate { $0.append(index) } } }
            // The loop sleeps (nothing else woke it): it has not seen the work yet.
            Thread.sleep(forTimeInterval: 0.1)
            return ran.value
        }
        #expect(ranDuringBatch.isEmpty)
        #expect(ran.wait { $0.count == 5 })
        #expect(ran.value == [0, 1, 2, 3, 4])
    }

    /// A loop hands another loop the work of its turn in one batch too: the other loop runs
    /// all of it, and a thread that does not collect still wakes the loop at once.
    @Test func workFromAnotherLoopsTurnAndFromAPlainThreadRuns() throws {
        let group = try EventLoopGroup(loopCount: 2)
        defer { group.shutdown() }
        let (first, second) = (group.loops[0], group.loops[1])
        let ran = Locked<[Int]>([])
        first.execute {
            for index in 0..<3 { second.execute { ran.mutate { $0.append(index) } } }
        }
        #expect(ran.wait { $0.count == 3 })
        second.execute { ran.mutate { $0.append(3) } }
        #expect(ran.wait { $0.count == 4 })
        #expect(ran.value == [0, 1, 2, 3])
    }
}
