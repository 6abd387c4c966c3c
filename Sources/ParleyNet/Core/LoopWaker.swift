import CParleySystem
import ParleySync

/// The eventfd that wakes an event loop from `epoll_wait` when another thread queues work
/// for it. It owns the descriptor: a wake-up another thread held back (`DeferredWakeups`)
/// and delivers late keeps the waker alive, so it never writes to a descriptor the loop
/// has closed (and the number reused).
final class LoopWaker: Wakeable {
    /// The eventfd, registered with the loop's epoll instance.
    let fd: Int32

    init() throws(SystemError) {
        fd = try blockingSystemCall("eventfd") { eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC)) }
    }

    deinit {
        close(fd)
    }

    /// Wakes the loop, however much work was queued: one eventfd write.
    func wake(count: Int) {
        var one: UInt64 = 1
        _ = write(fd, &one, 8)
    }

    /// Takes the wake-up on the loop, so the next `epoll_wait` sleeps again.
    func consume() {
        var value: UInt64 = 0
        _ = read(fd, &value, 8)
    }
}
