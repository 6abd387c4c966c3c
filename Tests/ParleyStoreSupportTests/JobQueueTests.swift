import ParleyStoreSupport
import Testing

/// A timed take: jobs when some are queued, a time-out after the wait when none come, and
/// the end once the queue is closed and drained.
@Suite struct JobQueueTests {
    @Test func aTimedTakeReturnsJobsTimesOutAndEnds() {
        let queue = JobQueue<Int>()
        let started = ContinuousClock.now
        guard case .timedOut = queue.take(upTo: 10, waitingAtMost: .milliseconds(20)) else {
            Issue.record("an empty queue's wait should time out")
            return
        }
        #expect(ContinuousClock.now - started >= .milliseconds(20))
        #expect(queue.enqueue(1) && queue.enqueue(2) && queue.enqueue(3))
        guard case .jobs(let taken) = queue.take(upTo: 2, waitingAtMost: .seconds(5)) else {
            Issue.record("queued jobs should be taken")
            return
        }
        #expect(taken == [1, 2])
        queue.close()
        guard case .jobs(let rest) = queue.take(upTo: 2, waitingAtMost: nil) else {
            Issue.record("a closed queue still hands out what it holds")
            return
        }
        #expect(rest == [3])
        guard case .closed = queue.take(upTo: 2, waitingAtMost: .seconds(5)) else {
            Issue.record("a closed, empty queue should end the consumer")
            return
        }
    }
}
