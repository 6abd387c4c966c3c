import CParleySystem

/// A counting semaphore for handing a result from a loop back to a waiting thread (setup and
/// shutdown paths only; never wait on an event loop).
final class Semaphore: @unchecked Sendable {
    // sem_t lives at a fixed heap address, as POSIX requires; sem_* calls are thread-safe.
    private let handle: UnsafeMutablePointer<sem_t>

    init(value: UInt32 = 0) {
        handle = .allocate(capacity: 1)
        sem_init(handle, 0, value)
    }

    deinit {
        sem_destroy(handle)
        handle.deallocate()
    }

    func signal() {
        sem_post(handle)
    }

    func wait() {
        while sem_wait(handle) != 0 && parley_errno() == EINTR {}
    }
}
