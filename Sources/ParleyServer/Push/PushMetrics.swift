import Synchronization

/// Push notification counters for `/metrics`: pushes sent (a push service or gateway took
/// them), failed (given up after the retries, or refused), dropped (over a limit, or the
/// queue full), and queued now (waiting for their window or being sent).
final class PushMetrics: Sendable {
    let sent = Atomic<Int>(0)
    let failed = Atomic<Int>(0)
    let dropped = Atomic<Int>(0)
    let queued = Atomic<Int>(0)

    /// Which counter to move.
    enum Counter {
        case sent, failed, dropped, queued
    }

    func add(_ counter: Counter, _ amount: Int = 1) {
        switch counter {
        case .sent: sent.wrappingAdd(amount, ordering: .relaxed)
        case .failed: failed.wrappingAdd(amount, ordering: .relaxed)
        case .dropped: dropped.wrappingAdd(amount, ordering: .relaxed)
        case .queued: queued.wrappingAdd(amount, ordering: .relaxed)
        }
    }

    /// The Prometheus text of the counters.
    func render() -> String {
        """
        # HELP parley_push_total Push notifications by outcome.
        # TYPE parley_push_total counter
        parley_push_total{outcome="sent"} \(sent.load(ordering: .relaxed))
        parley_push_total{outcome="failed"} \(failed.load(ordering: .relaxed))
        parley_push_total{outcome="dropped"} \(dropped.load(ordering: .relaxed))
        # HELP parley_push_queued Push notifications waiting or being sent.
        # TYPE parley_push_queued gauge
        parley_push_queued \(queued.load(ordering: .relaxed))

        """
    }
}
