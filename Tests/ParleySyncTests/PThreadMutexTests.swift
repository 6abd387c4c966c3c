import Foundation
import ParleySync
import Testing

@Suite struct PThreadMutexTests {
    @Test func withLockReturnsTheBodysResultAndKeepsChanges() {
        let mutex = PThreadMutex<[Int]>([1])
        let count = mutex.withLock { values -> Int in
            values.append(2)
            return values.count
        }
        #expect(count == 2)
        #expect(mutex.withLock { $0 } == [1, 2])
    }

    @Test func errorsThrownInsideLeaveTheLockUsable() {
        struct Failure: Error {}
        let mutex = PThreadMutex(0)
        #expect(throws: Failure.self) {
            try mutex.withLock { (value: inout Int) throws(Failure) in
                value = 5
                throw Failure()
            }
        }
        // Had the lock stayed held, this would deadlock rather than read the value.
        #expect(mutex.withLock { $0 } == 5)
    }

    /// Increments from several threads at once: without mutual exclusion some would be lost.
    @Test func incrementsFromManyThreadsAreNotLost() {
        let mutex = PThreadMutex(0)
        let threads = 4, perThread = 10_000
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            for _ in 0..<perThread { mutex.withLock { $0 += 1 } }
        }
        #expect(mutex.withLock { $0 } == threads * perThread)
    }
}
