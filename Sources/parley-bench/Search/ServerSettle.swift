import Glibc

/// Waits until a server has finished what set-up (or an overloaded step) left it doing: its
/// CPU use, read from `/proc/<pid>/stat`, and the bytes it writes to storage, read from
/// `/proc/<pid>/io` (a server working through a backlog of synced writes waits on the disk
/// and looks idle to the CPU alone), stay under thresholds for a whole window. This is
/// the admin-free stand-in for "checkpoint the store and go idle": the writes of 2,000
/// registrations and 1,000 friendships (and the WAL checkpoint after them) show as CPU, and
/// a first step measured during them fails for reasons that are not the rate's.
struct ServerSettle: Sendable {
    /// Quiet means below this, in percent of one core, over `window`.
    var thresholdPercent: Double = 10
    /// Quiet also means writing less than this to storage, in bytes per second, over `window`
    /// (when `/proc/<pid>/io` can be read).
    var writeBytesPerSecond: Double = 1024 * 1024
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

    /// What the server has used so far.
    struct Reading: Sendable {
        var cpuSeconds: Double
        /// Bytes written to storage (`write_bytes`), nil when unreadable.
        var writtenBytes: Double?
    }

    /// Waits for the processes `pids` (added up). Without pids there is nothing to read:
    /// settled at once.
    func wait(pids: [Int32]) -> Outcome {
        guard !pids.isEmpty else { return Outcome(settled: true, lastPercent: nil, waited: .zero) }
        return wait {
            let ticks = pids.compactMap { try? ProcessStats.cpuTicks(pid: $0) }
            guard ticks.count == pids.count else { return nil }
            let written = pids.map(Self.writtenBytes)
            return Reading(cpuSeconds: Double(ticks.reduce(0, +)) / Double(ProcessStats.ticksPerSecond),
                           writtenBytes: written.contains(nil) ? nil : written.compactMap { $0 }.reduce(0, +))
        }
    }

    /// `write_bytes` of `/proc/<pid>/io`, or nil.
    static func writtenBytes(pid: Int32) -> Double? {
        guard let text = try? ProcFile.read("/proc/\(pid)/io") else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("write_bytes:") {
            return line.split(separator: " ").last.flatMap { Double($0) }
        }
        return nil
    }

    /// Waits, reading what the server used so far from `read` (nil: unreadable, which ends
    /// the wait unsettled: a server that is gone will not become quiet).
    func wait(read: () -> Reading?) -> Outcome {
        let clock = ContinuousClock()
        let started = clock.now
        var last: Double?
        while true {
            guard let before = read() else { return Outcome(settled: false, lastPercent: last, waited: clock.now - started) }
            let windowStart = clock.now
            ProcessSetup.sleep(milliseconds: Int(window.seconds * 1000))
            guard let after = read() else { return Outcome(settled: false, lastPercent: last, waited: clock.now - started) }
            let seconds = max(0.001, (clock.now - windowStart).seconds)
            let percent = (after.cpuSeconds - before.cpuSeconds) / seconds * 100
            last = percent
            var writing = false
            if let written = after.writtenBytes, let earlier = before.writtenBytes {
                writing = (written - earlier) / seconds >= writeBytesPerSecond
            }
            if percent < thresholdPercent && !writing {
                return Outcome(settled: true, lastPercent: percent, waited: clock.now - started)
            }
            if clock.now - started + window > timeout { return Outcome(settled: false, lastPercent: percent, waited: clock.now - started) }
        }
    }
}
