import Glibc

/// A first-in, first-out queue of jobs between any number of producers (callers of the
/// store, on whatever thread) and the store's own threads, which sleep on a condition
/// variable while it is empty: an idle store uses no CPU.
///
/// Closing refuses new jobs but lets the consumers take the ones already queued, so that
/// work a caller was promised is done before the threads stop.
package final class JobQueue<Job: Sendable>: @unchecked Sendable {
    // @unchecked Sendable: `jobs`, `head` and `isClosed` are read and written only while
    // `mutex` is held; the mutex and condition live at fixed heap addresses (as POSIX
    // requires) from init to deinit, and pthread calls on them are thread-safe.

    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let nonEmptyOrClosed: UnsafeMutablePointer<pthread_cond_t>
    /// Jobs from `head` on are waiting; taken slots are nil until compaction.
    private var jobs: [Job?] = []
    private var head = 0
    private var isClosed = false

    package init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        nonEmptyOrClosed = .allocate(capacity: 1)
        nonEmptyOrClosed.initialize(to: pthread_cond_t())
        pthread_cond_init(nonEmptyOrClosed, nil)
    }

    deinit {
        pthread_cond_destroy(nonEmptyOrClosed)
        nonEmptyOrClosed.deinitialize(count: 1)
        nonEmptyOrClosed.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Adds `job` and wakes one consumer; false (and the job is dropped) once closed.
    package func enqueue(_ job: Job) -> Bool {
        let accepted = locked { () -> Bool in
            guard !isClosed else { return false }
            jobs.append(job)
            return true
        }
        if accepted { pthread_cond_signal(nonEmptyOrClosed) }
        return accepted
    }

    /// Waits until at least one job is queued and takes up to `limit` of them, oldest first.
    /// Returns nil when the queue is closed and empty: the consumer should stop.
    package func take(upTo limit: Int) -> [Job]? {
        locked { () -> [Job]? in
            while head == jobs.count && !isClosed {
                pthread_cond_wait(nonEmptyOrClosed, mutex)
            }
            guard head < jobs.count else { return nil }
            let end = min(jobs.count, head + max(1, limit))
            let taken = jobs[head..<end].compactMap { $0 }
            for index in head..<end { jobs[index] = nil }
            head = end
            compact()
            return taken
        }
    }

    /// Jobs waiting to be taken (for tests and metrics; stale as soon as it returns).
    package var count: Int {
        locked { jobs.count - head }
    }

    /// Refuses further jobs and wakes every consumer, so each either takes what is left or,
    /// once nothing is, stops.
    package func close() {
        locked { isClosed = true }
        pthread_cond_broadcast(nonEmptyOrClosed)
    }

    /// Drops the taken slots once they are at least half the array, so taking is O(1)
    /// amortised and the array does not grow without bound under steady load.
    private func compact() {
        if head == jobs.count {
            jobs.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 64 && head * 2 >= jobs.count {
            jobs.removeFirst(head)
            head = 0
        }
    }

    private func locked<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }
}
