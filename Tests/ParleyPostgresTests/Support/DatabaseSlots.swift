import ParleySync

/// Bounds how many test databases are in use at once, so that the tests running in parallel
/// never open more connections than the test server allows (`max_connections`): each store
/// holds a few (its readers, writers and listener), and Swift Testing runs as many tests at
/// once as it likes. A test waits for a slot before it creates its database and gives it back
/// when the database is dropped.
final class DatabaseSlots: Sendable {
    private struct State {
        var free: Int
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state: PThreadMutex<State>

    init(count: Int) {
        state = PThreadMutex(State(free: count))
    }

    /// Waits until a slot is free and takes it.
    func acquire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let granted = state.withLock { state -> Bool in
                if state.free > 0 {
                    state.free -= 1
                    return true
                }
                state.waiting.append(continuation)
                return false
            }
            if granted { continuation.resume() }
        }
    }

    /// Gives a slot back: to the longest waiting test, or to the pool.
    func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiting.isEmpty else {
                state.free += 1
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}
