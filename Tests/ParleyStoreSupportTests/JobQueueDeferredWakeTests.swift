import Foundation
import ParleySync
import Testing
@testable import ParleyStoreSupport

/// Jobs queued by a thread that holds its wake-ups back (an event loop's turn) reach a
/// sleeping consumer together, as one batch, once the producer's batch ends.
@Suite struct JobQueueDeferredWakeTests {
    @Test func jobsQueuedInABatchAreTakenTogether() {
        let queue = JobQueue<Int>()
        let taken = TakenBatches()
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            while let batch = queue.take(upTo: 100) { taken.append(batch) }
            done.signal()
        }
        // Let the consumer go to sleep on the empty queue first.
        Thread.sleep(forTimeInterval: 0.1)
        DeferredWakeups.collect {
            for job in 0..<5 { #expect(queue.enqueue(job)) }
            Thread.sleep(forTimeInterval: 0.1)
            #expect(taken.batches.isEmpty, "the consumer was woken before the batch ended")
        }
        queue.close()
        done.wait()
        #expect(taken.batches == [[0, 1, 2, 3, 4]])
    }
}

/// What the consumer took, batch by batch.
private final class TakenBatches: @unchecked Sendable {
    // @unchecked Sendable: every access holds `lock`.
    private let lock = NSLock()
    private var taken: [[Int]] = []
    func append(_ batch: [Int]) { lock.withLock { taken.append(batch) } }
    var batches: [[Int]] { lock.withLock { taken } }
}
