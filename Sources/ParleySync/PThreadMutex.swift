#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// A value guarded by a POSIX mutex, with the shape of the standard library's `Mutex`
/// (`withLock`).
///
/// Parley uses this instead of `Synchronization.Mutex` everywhere: on Linux that `Mutex` parks
/// threads with raw futex system calls, which ThreadSanitizer cannot see, so every value it
/// guards looks racy under `make test-sanitize`; `pthread_mutex_lock`/`unlock` are intercepted,
/// so TSan learns the happens-before edges and reports only real races. The cost is one heap
/// allocation per lock (this is a class) and an uncontended lock is the same atomic exchange.
///
/// `@unchecked Sendable`: `value` is read and written only inside `withLock`, between
/// `pthread_mutex_lock` and `pthread_mutex_unlock` on `mutex`, so at most one thread touches it
/// at a time; values go in and come out as `sending`, like `Mutex`, so no non-Sendable state
/// escapes the lock still shared.
public final class PThreadMutex<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let storage: UnsafeMutablePointer<Value>

    /// A mutex guarding `initialValue`.
    public init(_ initialValue: consuming sending Value) {
        mutex = .allocate(capacity: 1)
        // A default (non-recursive, non-error-checking) mutex: re-locking from inside
        // `withLock` deadlocks, as it would with `Mutex`.
        let status = pthread_mutex_init(mutex, nil)
        precondition(status == 0, "pthread_mutex_init failed: \(status)")
        storage = .allocate(capacity: 1)
        storage.initialize(to: initialValue)
    }

    deinit {
        storage.deinitialize(count: 1)
        storage.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the value and returns its result. `body` must not
    /// call `withLock` on the same mutex (it would deadlock) and should be short: other threads
    /// wait for it, and event loops must never block for long.
    public func withLock<Result, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&storage.pointee)
    }
}
