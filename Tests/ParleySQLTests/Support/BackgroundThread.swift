import Foundation
import ParleySync

/// Runs a closure on its own thread (not the test's cooperative pool, since the work blocks)
/// and hands back its error when joined.
final class BackgroundThread: Sendable {
    private let finished = DispatchSemaphore(value: 0)
    private let failure = PThreadMutex<(any Error)?>(nil)

    init(_ body: @escaping @Sendable () throws -> Void) {
        let thread = Thread { [self] in
            do { try body() } catch { failure.withLock { $0 = error } }
            finished.signal()
        }
        thread.start()
    }

    /// Waits for the closure to end and rethrows what it threw.
    func join() throws {
        finished.wait()
        if let error = failure.withLock({ $0 }) { throw error }
    }
}
