import Foundation
import ParleySync
import Testing

/// A consumer that records its wake-ups instead of waking anything.
private final class RecordingConsumer: Wakeable, @unchecked Sendable {
    // @unchecked Sendable: each test touches it from its own thread only.
    var wakes: [Int] = []
    func wake(count: Int) { wakes.append(count) }
}

@Suite struct DeferredWakeupsTests {
    @Test func aThreadThatDoesNotCollectWakesAtOnce() {
        let consumer = RecordingConsumer()
        #expect(!DeferredWakeups.isCollecting)
        #expect(DeferredWakeups.deferWake(of: consumer) == false)
        DeferredWakeups.flush()
        #expect(consumer.wakes.isEmpty)
    }

    /// Work for two consumers handed out in one batch: each is woken once, when it ends, with
    /// the number of pieces it got.
    @Test func insideABatchEachConsumerIsWokenOnceWhenItEnds() {
        let first = RecordingConsumer(), second = RecordingConsumer()
        DeferredWakeups.collect {
            for _ in 0..<3 { #expect(DeferredWakeups.deferWake(of: first)) }
            #expect(DeferredWakeups.deferWake(of: second))
            #expect(first.wakes.isEmpty && second.wakes.isEmpty)
        }
        #expect(first.wakes == [3])
        #expect(second.wakes == [1])
        #expect(!DeferredWakeups.isCollecting)
    }

    @Test func nestedBatchesWakeWhenTheOutermostEnds() {
        let consumer = RecordingConsumer()
        DeferredWakeups.collect {
            DeferredWakeups.collect { _ = DeferredWakeups.deferWake(of: consumer) }
            #expect(consumer.wakes.isEmpty)
            _ = DeferredWakeups.deferWake(of: consumer)
        }
        #expect(consumer.wakes == [2])
    }

    @Test func aBatchThatThrowsStillWakes() {
        struct Failure: Error {}
        let consumer = RecordingConsumer()
        #expect(throws: Failure.self) {
            try DeferredWakeups.collect { () throws(Failure) in
                _ = DeferredWakeups.deferWake(of: consumer)
                throw Failure()
            }
        }
        #expect(consumer.wakes == [1])
    }

    /// A thread that collects for good (an event loop) wakes at each `flush`, and only for
    /// what came since the last one. On a thread of its own: the state is the thread's.
    @Test func aThreadThatCollectsForGoodWakesAtEachFlush() {
        let consumer = RecordingConsumer()
        let observed = runOnNewThread { () -> [[Int]] in
            DeferredWakeups.beginCollecting()
            _ = DeferredWakeups.deferWake(of: consumer)
            _ = DeferredWakeups.deferWake(of: consumer)
            let beforeFlush = consumer.wakes
            DeferredWakeups.flush()
            let afterFirst = consumer.wakes
            DeferredWakeups.flush()
            _ = DeferredWakeups.deferWake(of: consumer)
            DeferredWakeups.flush()
            return [beforeFlush, afterFirst, consumer.wakes]
        }
        #expect(observed == [[], [2], [2, 1]])
    }

    /// Runs `body` on a new thread and returns its result.
    private func runOnNewThread(_ body: @escaping @Sendable () -> [[Int]]) -> [[Int]] {
        let result = ResultBox()
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            result.value = body()
            done.signal()
        }
        done.wait()
        return result.value
    }
}

/// A result handed from a thread to the one waiting for it.
private final class ResultBox: @unchecked Sendable {
    // @unchecked Sendable: written before the semaphore's signal, read after its wait.
    var value: [[Int]] = []
}
