import Glibc

/// Waits until a server has finished what set-up (or an overloaded step) left it doing: its
/// CPU use, read from `/proc/<pid>/stat`, stays under a threshold for a whole window. This is
/// the admin-free stand-in for "checkpoint the store and go idle": the writes of 2,000
/// registrations and 1,000 friendships (and the WAL checkpoint after them) show as CPU, and
/// a first step measured during them fails for reasons that are not the rate's.
struct ServerSettle: Sendable {
    /// Quiet means below this, in percent of one core, over `window`.
    var thresholdPercent: Double = 10
    /// How long the server must stay quiet.
    var window: Duration = .seconds(2)
    /// The longest wait in all; after it the step runs anyway (and says so).
    var timeout: Duration = .seconds(30)

    /// How a wait ended.
    struct Outcome: Sendable {
        var settled: Bool
        /// The server's CPU over the last window, in percent of one core (nil: unreadable).
        var lastPercent: Double?
        var waited: Duration
    }

    /// Waits for the processes `pids` (added up). Without pids there is nothing to read:
    /// settled at once.
    func wait(pids: [Int32]) -> Outcome {
        guard !pids.isEmpty else { return Outcome(settled: true, lastPercent: nil, waited: .zero) }
        return wait {
            let ticks = pids.compactMap { try? ProcessStats.cpuTicks(pid: $0) }
            guard ticks.count == pids.count else { return nil }
            return Double(ticks.reduce(0, +)) / Double(ProcessStats.ticksPerSecond)
        }
    }

    /// Waits, reading the CPU seconds used so far from `cpuSeconds` (nil: unreadable, which
    /// ends the wait unsettled: a server that is gone will not become quiet).
    func wait(cpuSeconds: () -> Double?) -> Outcome {
        let clock = ContinuousClock()
        let started = clock.now
        var last: Double?
        while true {
            guard let before = cpuSeconds() else { return Outcome(settled: false, lastPercent: last, waited: clock.now - started) }
            let windowStart = clock.now
            ProcessSetup.sleep(milliseconds: Int(window.seconds * 1000))
            guard let after = cpuSeconds() else { return Outcome(settled: false, lastPercent: last, waited: clock.now - started) }
            let percent = (after - before) / max(0.001, (clock.now - windowStart).seconds) * 100
            last = percent
            if percent < thresholdPercent { return Outcome(settled: true, lastPercent: percent, waited: clock.now - started) }
            if clock.now - started + window > timeout { return Outcome(settled: false, lastPercent: percent, waited: clock.now - started) }
        }
    }
}
