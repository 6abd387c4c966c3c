import Glibc
import ParleyNet

/// Runs the measured steps of a messaging scenario against one server whose clients are set
/// up: a fixed rate, or with `--find-max` rising rates until one fails.
enum MessagingRunner {
    /// What a whole run against one server gave.
    struct Outcome {
        var dialect: Dialect
        var steps: [MessagingStep]
        /// The highest rate that held (find-max), or nil.
        var maxHeld: Double?
        /// The step that stands for the run: the last that held (find-max), or the only one.
        var headline: MessagingStep? {
            if let maxHeld { return steps.last { $0.rate == maxHeld } }
            return steps.last
        }
    }

    static func run(_ set: ConnectionSet, senders: [BenchConnection], fanout: Int, target: MessagingSettings.Target,
                    settings: MessagingSettings, connectErrors: Int) throws -> Outcome {
        let loads = set.group.loops.map { loop in
            MessagingLoad(loop: loop, clients: set.connections.filter { $0.loop === loop },
                          senders: senders.filter { $0.loop === loop }, size: settings.size, actionEvery: settings.actionEvery)
        }
        // Each loop sends in proportion to its senders, so every sender sends at the same rate.
        let shares = loads.indices.map { index in
            Double(senders.filter { $0.loop === set.group.loops[index] }.count) / Double(max(1, senders.count))
        }
        var outcome = Outcome(dialect: target.dialect, steps: [])
        var rate = settings.rate
        var step = 0
        while true {
            step += 1
            let closedBefore = set.closed.load(ordering: .relaxed)
            let serverBefore = serverTicks(target.pids)
            let threadsBefore = threadTicks(target.pids)
            let ownBefore = try ProcessStats.read(pid: getpid()).cpuTicks
            let started = ContinuousClock.now
            let result = runStep(step, rate: rate, loads: loads, shares: shares, fanout: fanout,
                                 acknowledged: target.dialect != .nats, settings: settings)
            let elapsed = (ContinuousClock.now - started).seconds
            let serverAfter = serverTicks(target.pids)
            let ownAfter = try ProcessStats.read(pid: getpid()).cpuTicks
            let percent = { (ticks: Int) in Double(ticks) / Double(ProcessStats.ticksPerSecond) / elapsed * 100 }
            var serverCPU: Double?
            if let serverBefore, let serverAfter { serverCPU = percent(serverAfter - serverBefore) }
            let report = MessagingStep(rate: rate, result: result, fanout: fanout, acknowledged: target.dialect != .nats,
                                       duration: settings.duration.seconds,
                                       closes: set.closed.load(ordering: .relaxed) - closedBefore + (step == 1 ? connectErrors : 0),
                                       serverCPU: serverCPU, benchCPU: percent(ownAfter - ownBefore))
            outcome.steps.append(report)
            Console.line("  \(target.dialect.rawValue) step \(step): " + report.summary)
            if !target.pids.isEmpty, result.sent > 0 {
                // Server CPU per message sent, by thread: the single SQLite writer, the event
                // loops, the task pool. Ticks are 10 ms, so short steps read coarsely.
                let threads = threadTicks(target.pids).compactMap { name, ticks -> (String, Double)? in
                    let used = ticks - (threadsBefore[name] ?? 0)
                    guard used > 0 else { return nil }
                    return (name, Double(used) / Double(ProcessStats.ticksPerSecond) * 1e6 / Double(result.sent))
                }.sorted { $0.1 > $1.1 }
                Console.line("    server CPU per message sent: " + threads.map { "\($0.0) \(Format.significant($0.1)) µs" }.joined(separator: ", "))
            }
            for (reason, count) in result.reasons.sorted(by: { $0.value > $1.value }).prefix(5) {
                Console.line("    \(count) × \(reason)")
            }
            let held = report.held(p99Bound: settings.p99Bound)
            if held { outcome.maxHeld = rate }
            guard settings.findMax, held, rate * settings.stepFactor <= settings.maxRate, set.openNow > 0 else { break }
            rate *= settings.stepFactor
        }
        if !settings.findMax { outcome.maxHeld = nil }
        return outcome
    }

    /// The servers' CPU ticks added up (every node of a cluster), or nil without pids.
    private static func serverTicks(_ pids: [Int32]) -> Int? {
        guard !pids.isEmpty else { return nil }
        let ticks = pids.compactMap { try? ProcessStats.read(pid: $0).cpuTicks }
        return ticks.count == pids.count ? ticks.reduce(0, +) : nil
    }

    /// CPU ticks by thread name, added up over the servers.
    private static func threadTicks(_ pids: [Int32]) -> [String: Int] {
        pids.reduce(into: [:]) { total, pid in total.merge(ProcessStats.threadTicks(pid: pid), uniquingKeysWith: +) }
    }

    private static func runStep(_ step: Int, rate: Double, loads: [MessagingLoad], shares: [Double], fanout: Int,
                                acknowledged: Bool, settings: MessagingSettings) -> MessagingResult {
        let start = MonotonicClock.now() + 20_000_000
        for (index, load) in loads.enumerated() {
            let share = rate * shares[index]
            let warmup = settings.warmup, duration = settings.duration
            load.loop.execute { load.startStep(step, rate: share, start: start, warmup: warmup, duration: duration) }
        }
        let sendingEnds = start + (settings.warmup + settings.duration).nanoseconds
        while MonotonicClock.now() < sendingEnds {
            usleep(UInt32(min(100_000, max(1_000, (sendingEnds - MonotonicClock.now()) / 1_000))))
        }
        let drainEnds = MonotonicClock.now() + settings.drain.nanoseconds
        var merged = collect(loads)
        while MonotonicClock.now() < drainEnds
                && (merged.delivered < merged.sent * fanout || (acknowledged && merged.acked + merged.refused < merged.sent)) {
            usleep(20_000)
            merged = collect(loads)
        }
        return merged
    }

    private static func collect(_ loads: [MessagingLoad]) -> MessagingResult {
        LoopTasks.gather(loads, loop: { $0.loop }) { $0.snapshot() }.reduce(into: MessagingResult()) { $0.merge($1) }
    }
}
