import Glibc
import ParleyNet

/// Runs the measured steps of a messaging scenario against one server whose clients are set
/// up: a fixed rate, or with `--find-max` rising rates until one fails (`RateSearch`: a
/// failed step is repeated before it counts, the whole search runs `--searches` times, and
/// the server is left to go quiet before each search and each repeat).
enum MessagingRunner {
    /// What a whole run against one server gave.
    struct Outcome {
        var server: BenchServer
        /// Every step of every search, in order.
        var steps: [MessagingStep]
        /// Find-max: each search's highest rate that held (nil: none held).
        var searches: [Double?] = []
        /// Find-max: the median over the searches of the highest rate that held (a search
        /// where none held counts as 0), or nil when that median is 0; nil without find-max.
        var maxHeld: Double? {
            guard let spread, spread.median > 0 else { return nil }
            return spread.median
        }
        /// The searches' highest rates, a search that held nothing as 0.
        var spread: Spread? { Spread(searches.map { $0 ?? 0 }) }
        /// The step that stands for the run: the highest rate at or below the median that
        /// held (find-max), or the last step.
        var headline: MessagingStep? {
            if let maxHeld, let step = steps.filter({ $0.held && $0.rate <= maxHeld }).max(by: { $0.rate < $1.rate }) {
                return step
            }
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
        var outcome = Outcome(server: target.server, steps: [])
        let search = RateSearch(policy: RateSearch.Policy(start: settings.rate, factor: settings.stepFactor,
                                                          maxRate: settings.maxRate, retries: settings.findMax ? settings.retries : 0,
                                                          refinements: settings.refinements, findMax: settings.findMax))
        var step = 0
        let searchCount = settings.findMax ? settings.searches : 1
        for searchIndex in 1...searchCount {
            guard set.openNow > 0 else { break }
            let label = searchCount > 1 ? "search \(searchIndex) of \(searchCount), " : ""
            settle(target, settings: settings, before: label + "the first step")
            let found = try search.run(canContinue: { set.openNow > 0 }) { rate, retry in
                if retry > 0 { settle(target, settings: settings, before: "repeat \(retry) of \(Format.rate(rate))/s") }
                step += 1
                let report = try measure(step, rate: rate, set: set, loads: loads, shares: shares, fanout: fanout, target: target,
                                         settings: settings, connectErrors: step == 1 ? connectErrors : 0)
                outcome.steps.append(report)
                return report.held
            }
            if settings.findMax {
                outcome.searches.append(found.maxHeld)
                Console.line("  \(target.server.rawValue) \(label)highest rate held: " + (found.maxHeld.map { Format.rate($0) + "/s" } ?? "none"))
            }
        }
        return outcome
    }

    /// Waits (bounded) until the server is quiet, and says so when it was not.
    private static func settle(_ target: MessagingSettings.Target, settings: MessagingSettings, before what: String) {
        guard settings.findMax, let settle = settings.settle, !target.pids.isEmpty else { return }
        let waited = settle.wait(pids: target.pids)
        let cpu = waited.lastPercent.map(Format.percent) ?? "unreadable"
        if waited.settled {
            if waited.waited.seconds > settle.window.seconds * 1.5 {
                Console.line("  (waited \(Format.significant(waited.waited.seconds)) s for the server to go quiet before \(what))")
            }
        } else {
            Console.line("  (server not quiet before \(what) after \(Format.significant(waited.waited.seconds)) s: CPU \(cpu); measuring anyway)")
        }
    }

    /// One measured step at `rate`, printed as it ends.
    private static func measure(_ step: Int, rate: Double, set: ConnectionSet, loads: [MessagingLoad], shares: [Double], fanout: Int,
                                target: MessagingSettings.Target, settings: MessagingSettings, connectErrors: Int) throws -> MessagingStep {
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
        var report = MessagingStep(rate: rate, result: result, fanout: fanout, acknowledged: target.dialect != .nats,
                                   duration: settings.duration.seconds,
                                   closes: set.closed.load(ordering: .relaxed) - closedBefore + connectErrors,
                                   serverCPU: serverCPU, benchCPU: percent(ownAfter - ownBefore))
        report.held = report.held(p99Bound: settings.p99Bound)
        if let serverBefore, let serverAfter { report.serverCPUSeconds = Double(serverAfter - serverBefore) / Double(ProcessStats.ticksPerSecond) }
        Console.line("  \(target.server.rawValue) step \(step): " + report.summary)
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
        return report
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
