/// A timer that runs a task on its event loop at a deadline, unless cancelled first.
///
/// Created and fired on one loop; `cancel()` may be called from any thread.
public final class ScheduledTimer: @unchecked Sendable {
    // `task` is read and cleared only on the owning loop; `cancel()` from another thread goes
    // through `loop.execute`, so the two never race.
    fileprivate var task: (() -> Void)?
    fileprivate let deadline: UInt64
    fileprivate let sequence: UInt64
    private unowned let loop: EventLoop

    init(loop: EventLoop, deadline: UInt64, sequence: UInt64, task: @escaping () -> Void) {
        self.loop = loop
        self.deadline = deadline
        self.sequence = sequence
        self.task = task
    }

    /// Stops the task from running; harmless if it already ran.
    public func cancel() {
        if loop.inEventLoop {
            task = nil
        } else {
            loop.execute { self.task = nil }
        }
    }

    /// Whether the timer is still waiting to run.
    var isPending: Bool { task != nil }

    func fire() {
        guard let task else { return }
        self.task = nil
        task()
    }
}

/// A binary min-heap of timers ordered by deadline (then creation order).
/// Cancelled timers stay in the heap until they reach the top; that keeps cancel O(1).
struct TimerHeap {
    private var items: [ScheduledTimer] = []

    var isEmpty: Bool { items.isEmpty }
    /// Timers held, cancelled ones not yet popped included (each keeps its task until then).
    var count: Int { items.count }

    /// The earliest deadline, skipping cancelled timers at the top.
    mutating func nextDeadline() -> UInt64? {
        while let top = items.first, !top.isPending { popTop() }
        return items.first?.deadline
    }

    mutating func insert(_ timer: ScheduledTimer) {
        items.append(timer)
        siftUp(items.count - 1)
    }

    /// Removes and returns every timer whose deadline is at or before `now`, in order.
    /// The caller fires them after this returns: a firing task may schedule new timers.
    mutating func popExpired(now: UInt64) -> [ScheduledTimer] {
        var expired: [ScheduledTimer] = []
        while let top = items.first, top.deadline <= now {
            popTop()
            if top.isPending { expired.append(top) }
        }
        return expired
    }

    private mutating func popTop() {
        let last = items.removeLast()
        if !items.isEmpty {
            items[0] = last
            siftDown(0)
        }
    }

    private func less(_ a: ScheduledTimer, _ b: ScheduledTimer) -> Bool {
        a.deadline != b.deadline ? a.deadline < b.deadline : a.sequence < b.sequence
    }

    private mutating func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard less(items[child], items[parent]) else { return }
            items.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < items.count, less(items[left], items[smallest]) { smallest = left }
            if right < items.count, less(items[right], items[smallest]) { smallest = right }
            if smallest == parent { return }
            items.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
