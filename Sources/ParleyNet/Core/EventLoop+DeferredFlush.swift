/// Something whose flush may wait for the end of its loop's delivery window (a connection
/// with fan-out writes queued).
protocol DeferredFlushWork: AnyObject {
    /// Its index in the loop's list of deferred flushes; nil while not in it. Kept by the loop.
    var deferredFlushSlot: Int? { get set }
    /// The window ended: flush what is queued, at the end of this turn.
    func runDeferredFlush()
}

/// The delivery window: writes that many connections get at about the same time (a group
/// message fanned out to its members) are not flushed at the end of their turn but when the
/// window ends, so that the events of several turns share one `writev` per connection (and
/// one `read` at the peer). One timer per loop ends the window for every connection in it,
/// never one per connection; the first deferred flush opens the window.
extension EventLoop {
    /// Flushes `work` when the current window ends, opening one of `window` if none is open.
    /// Call on the loop; a no-op if `work` is already waiting.
    func deferFlush(_ work: DeferredFlushWork, window: Duration) {
        guard work.deferredFlushSlot == nil else { return }
        work.deferredFlushSlot = deferredFlushes.count
        deferredFlushes.append(work)
        if deferredFlushTimer == nil {
            deferredFlushTimer = schedule(after: window) { [unowned self] in
                // The loop owns its timers, so it outlives this one.
                self.deferredFlushTimer = nil
                self.flushDeferredNow()
            }
        }
    }

    /// Takes `work` out of the window (it flushes now, or it closed); O(1): the last entry
    /// takes its place.
    func cancelDeferredFlush(_ work: DeferredFlushWork) {
        guard let slot = work.deferredFlushSlot else { return }
        work.deferredFlushSlot = nil
        let last = deferredFlushes.removeLast()
        if last !== work {
            deferredFlushes[slot] = last
            last.deferredFlushSlot = slot
        }
    }

    /// Ends the window now: every deferred flush runs at the end of this turn. The window's
    /// timer does this; so does a loop that stops.
    func flushDeferredNow() {
        deferredFlushTimer?.cancel()
        deferredFlushTimer = nil
        guard !deferredFlushes.isEmpty else { return }
        let due = deferredFlushes
        deferredFlushes = []
        for work in due { work.deferredFlushSlot = nil }
        for work in due { work.runDeferredFlush() }
    }

    /// How many flushes wait for the window to end (for tests and diagnostics).
    var deferredFlushCount: Int { deferredFlushes.count }
}
