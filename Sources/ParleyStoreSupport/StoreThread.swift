import Glibc
// Only for naming threads: the Glibc module does not export pthread_setname_np.
import Foundation
package import ParleyCore

/// One of the store's own threads (the writer or a reader): a joinable POSIX thread running
/// a closure. Store work blocks on disk and locks, so it gets threads of its own rather than
/// the async runtime's few cooperative ones or an event loop.
package struct StoreThread: Sendable {
    private let handle: pthread_t

    /// Starts a thread named `name` (as `top -H` and debuggers show it) running `body`.
    /// The closure, and whatever it captures, is released when it returns.
    package static func start(name: String, _ body: @escaping @Sendable () -> Void) throws(StoreError) -> StoreThread {
        let start = Unmanaged.passRetained(StoreThreadStart(name: name, body: body))
        var handle = pthread_t()
        let rc = pthread_create(&handle, nil, { raw in
            guard let raw else { return nil }
            let start = Unmanaged<StoreThreadStart>.fromOpaque(raw).takeRetainedValue()
            start.run()
            return nil
        }, start.toOpaque())
        guard rc == 0 else {
            start.release()
            throw StoreError.failure("cannot start the store thread \(name): pthread_create returned \(rc)")
        }
        return StoreThread(handle: handle)
    }

    /// Whether the calling thread is this one (joining it from itself would deadlock).
    package var isCurrent: Bool { pthread_equal(pthread_self(), handle) != 0 }

    /// Waits for the thread to end.
    package func join() {
        pthread_join(handle, nil)
    }

    /// Lets the thread end on its own without anyone joining it.
    package func detach() {
        pthread_detach(handle)
    }
}

/// What a new thread needs, passed through `pthread_create`'s single pointer.
private final class StoreThreadStart {
    let name: String
    let body: @Sendable () -> Void

    init(name: String, body: @escaping @Sendable () -> Void) {
        self.name = name
        self.body = body
    }

    func run() {
        // Linux keeps at most 15 bytes of a thread's name.
        Thread.current.name = name
        body()
    }
}
