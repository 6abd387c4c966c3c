import Glibc
import ParleySync

/// A value shared between a test and event-loop callbacks.
final class Locked<Value: Sendable>: Sendable {
    private let mutex: PThreadMutex<Value>
    init(_ value: Value) { mutex = PThreadMutex(value) }
    var value: Value { mutex.withLock { $0 } }
    func mutate<R: Sendable>(_ body: @Sendable (inout Value) -> R) -> R { mutex.withLock { body(&$0) } }

    /// Polls until `predicate` holds or `seconds` pass; returns whether it held.
    func wait(seconds: Double = 5, until predicate: (Value) -> Bool) -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while ContinuousClock.now < deadline {
            if predicate(value) { return true }
            Thread_sleepMilliseconds(5)
        }
        return predicate(value)
    }
}

func Thread_sleepMilliseconds(_ ms: Int) {
    var spec = timespec(tv_sec: ms / 1000, tv_nsec: (ms % 1000) * 1_000_000)
    nanosleep(&spec, nil)
}
