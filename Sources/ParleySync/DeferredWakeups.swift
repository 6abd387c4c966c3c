#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// Wake-ups the current thread holds back until it has handed out a whole batch of work.
///
/// A thread that queues work for another one normally wakes it at once. When it queues a lot
/// in a row (a store writer resuming every caller of a commit; an event loop reading a turn's
/// messages and queueing their writes and deliveries), the consumer may wake for the first
/// piece, take it alone, sleep, and wake again for the next: one system call and one thread
/// switch on each side per piece. Inside `collect` (or between `beginCollecting` and the
/// end of the thread), a producer that asks `deferWake(of:)` queues its work as usual but
/// leaves the wake-up to `flush()`, which wakes each consumer once, whatever it was given.
///
/// The work itself is queued at once; only the wake-up waits, and only until the producer's
/// batch ends (`collect` returns, or the loop calls `flush()` at the end of its phase), so a
/// consumer that happens to be awake takes it as before. A thread that does not collect
/// wakes at once, as if this did not exist. The state is per thread, so no lock is taken.
public enum DeferredWakeups {
    /// What one thread holds back: each consumer once, in the order first asked for, with how
    /// many pieces of work wait for it. Touched only by its own thread.
    private final class Pending {
        var targets: [(consumer: any Wakeable, count: Int)] = []
        /// An empty list `targets` trades places with when flushed, so a flush allocates nothing.
        var spare: [(consumer: any Wakeable, count: Int)] = []
        /// `collect` calls in progress; a thread that collects for good counts one more.
        var depth = 0
    }

    /// The thread-local slot holding a thread's `Pending` (retained; released with the thread).
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { raw in
            guard let raw else { return }
            Unmanaged<AnyObject>.fromOpaque(raw).release()
        }
        precondition(status == 0, "pthread_key_create failed: \(status)")
        return key
    }()

    private static var current: Pending? {
        guard let raw = pthread_getspecific(key) else { return nil }
        return Unmanaged<Pending>.fromOpaque(raw).takeUnretainedValue()
    }

    private static func pendingForThread() -> Pending {
        if let pending = current { return pending }
        let pending = Pending()
        pthread_setspecific(key, Unmanaged.passRetained(pending).toOpaque())
        return pending
    }

    /// Runs `body` with the thread's wake-ups held back, and wakes each consumer it queued
    /// work for once it returns (or throws). Nests: the outermost call wakes.
    public static func collect<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        let pending = pendingForThread()
        pending.depth += 1
        defer {
            pending.depth -= 1
            if pending.depth == 0 { flush() }
        }
        return try body()
    }

    /// Holds this thread's wake-ups back from now on, until the thread ends; it calls
    /// `flush()` whenever a batch is handed out (an event loop: after each phase of its turn).
    public static func beginCollecting() {
        pendingForThread().depth += 1
    }

    /// Whether this thread holds wake-ups back now.
    public static var isCollecting: Bool {
        (current?.depth ?? 0) > 0
    }

    /// Called by a producer that just queued work for `consumer`: true if the wake-up was
    /// held back (the thread collects), false if the caller must wake it now.
    public static func deferWake(of consumer: any Wakeable) -> Bool {
        guard let pending = current, pending.depth > 0 else { return false }
        if let index = pending.targets.firstIndex(where: { $0.consumer === consumer }) {
            pending.targets[index].count += 1
        } else {
            pending.targets.append((consumer, 1))
        }
        return true
    }

    /// Wakes every consumer held back so far, once each.
    public static func flush() {
        guard let pending = current, !pending.targets.isEmpty else { return }
        // Taken out first: a consumer's wake-up may queue more (it runs on this thread).
        var due = pending.spare
        swap(&due, &pending.targets)
        for target in due { target.consumer.wake(count: target.count) }
        due.removeAll(keepingCapacity: true)
        pending.spare = due
    }
}
