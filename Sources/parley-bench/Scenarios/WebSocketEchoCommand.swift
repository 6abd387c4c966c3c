import Glibc
import ParleyNet

/// `ws-echo`: opens many WebSocket clients, sends fixed-size text messages at a fixed total
/// rate (open loop) and measures every echo's round trip. With `--find-max`, raises the rate
/// step by step until the p99 bound, the throughput or the error count gives way.
enum WebSocketEchoCommand: BenchCommand {
    static let name = "ws-echo"
    static let summary = "round-trip latency of WebSocket echoes at a fixed message rate (open loop)"
    static let help = """
        --port P            the echo server's port (required)
        --host H            its loopback address (default 127.0.0.1)
        --path PATH         WebSocket path (default /ws)
        --connections N     WebSocket clients (default 1000)
        --rate R            messages per second over all clients (default 1000)
        --duration S        measured seconds per step (default 10)
        --warmup S          seconds sent before measuring, per step (default 1)
        --size B            message size in bytes, at least 26 (default 64)
        --loops N           client event loops (default 2)
        --source-ips A-B    bind client sockets to these loopback addresses, round-robin
        --window N          handshakes in flight per loop while connecting (default 100)
        --drain S           seconds to wait for late echoes after a step (default 2)
        --repeat N          run every rate N times; the median run (by p99) is the headline
                            and a rate holds when most of its runs hold (default 1)
        --find-max          raise the rate by --step-factor each step until a rate fails
        --p99-bound-ms MS   a step fails when p99 exceeds this (default 10)
        --step-factor F     rate multiplier between steps (default 1.5)
        --max-rate R        stop raising here (default 1000000)
        --server-pid PID    also report the server's CPU use during each step
        --results FILE      append the headline numbers to FILE (see the report command)
        --markdown          print the table as Markdown
        """
    static let valueOptions: Set<String> = ["port", "host", "path", "connections", "rate", "duration", "warmup", "size",
                                            "loops", "source-ips", "window", "drain", "repeat", "p99-bound-ms", "step-factor",
                                            "max-rate", "server-pid", "results"]
    static let switchOptions: Set<String> = ["find-max", "markdown"]

    private struct Settings {
        var target: SocketAddress
        var path: String
        var connections: Int
        var rate: Double
        var duration: Duration
        var warmup: Duration
        var size: Int
        var loops: Int
        var sources: [SocketAddress]
        var window: Int
        var drain: Duration
        var repeats: Int
        var findMax: Bool
        var p99Bound: UInt64
        var stepFactor: Double
        var maxRate: Double
        var serverPID: Int32?
        var results: ResultLog?
        var markdown: Bool
    }

    static func run(_ options: CommandLineOptions) throws -> Int32 {
        let settings = try parse(options)
        let descriptorLimit = ProcessSetup.raiseDescriptorLimit()
        guard settings.connections + 64 <= descriptorLimit else {
            throw BenchError.usage("--connections \(settings.connections) needs more descriptors than this process may open (\(descriptorLimit))")
        }
        let fleet = try ClientFleet(loops: settings.loops)
        defer { fleet.shutdown() }
        let loads = fleet.members.map { EchoLoad(clients: $0, size: settings.size) }

        Console.line("ws-echo: opening \(Format.count(settings.connections)) WebSockets to \(settings.target)\(settings.path) over \(settings.loops) loop(s)")
        fleet.connect(count: settings.connections, target: settings.target, path: settings.path,
                      sources: settings.sources, windowPerLoop: settings.window)
        let settled = fleet.waitUntilSettled(timeout: .seconds(120)) {
            Console.line("  open \(Format.count(fleet.opened)), failed \(Format.count(fleet.failed))")
        }
        let connectErrors = fleet.failed
        Console.line("ws-echo: \(Format.count(fleet.opened)) open, \(Format.count(connectErrors)) failed\(settled ? "" : " (gave up waiting)")")
        for line in ErrorTally.lines(fleet.errors) { Console.line("  error: \(line)") }
        guard fleet.openNow > 0 else { throw BenchError.failed("no WebSocket opened") }

        var table = ResultTable(headers: EchoStepReport.headers)
        var rate = settings.rate
        var step = 0
        var maxHeld: Double?
        var headline: EchoStepReport?
        var anyErrors = false
        while true {
            var runs: [EchoStepReport] = []
            for _ in 0..<settings.repeats {
                step += 1
                let report = try measureStep(step, rate: rate, loads: loads, fleet: fleet, settings: settings,
                                             extraErrors: step == 1 ? connectErrors : 0)
                runs.append(report)
                table.add(report.cells)
                Console.line("step \(step): " + report.summary)
            }
            // The median run (by p99) stands for the rate; a rate holds when most of its runs
            // do, so one stall of a shared machine neither makes nor breaks it.
            headline = runs.sorted { $0.p99 < $1.p99 }[runs.count / 2]
            anyErrors = anyErrors || runs.contains { $0.errors > 0 }
            let held = runs.filter { $0.held(p99Bound: settings.p99Bound) }.count * 2 > runs.count
            if held { maxHeld = rate }
            guard settings.findMax, held, rate * settings.stepFactor <= settings.maxRate, fleet.openNow > 0 else { break }
            rate *= settings.stepFactor
        }

        Console.line("")
        Console.line("ws-echo: \(Format.count(fleet.openNow)) connections, \(settings.size)-byte text messages, "
            + "\(settings.loops) client loop(s), \(settings.warmup.seconds) s warm-up + \(settings.duration.seconds) s measured per step")
        table.print(markdown: settings.markdown)
        if settings.findMax {
            if let maxHeld {
                Console.line("highest rate that held (p99 ≤ \(Format.latency(nanoseconds: settings.p99Bound)), ≥ 95 % echoed in time, no errors): "
                    + "\(Format.rate(maxHeld)) messages/s")
            } else {
                Console.line("no rate held (p99 ≤ \(Format.latency(nanoseconds: settings.p99Bound)), ≥ 95 % echoed in time, no errors)")
            }
        }
        let fleetErrors = fleet.errors
        for line in ErrorTally.lines(fleetErrors) { Console.line("  error: \(line)") }

        if let log = settings.results, let headline {
            let scenario = "ws-echo \(Format.count(settings.connections)) conns, \(settings.size) B"
            let which = settings.findMax ? "last step" : "at \(Format.rate(rate))/s"
            let latency = headline.result.latency
            try log.append(scenario: scenario, metric: "messages/s \(which)", value: Format.rate(headline.achieved))
            try log.append(scenario: scenario, metric: "p50 / p99 / p99.9 / max",
                           value: [0.5, 0.99, 0.999].map { Format.latency(nanoseconds: latency.value(atQuantile: $0)) }
                            .joined(separator: " / ") + " / " + Format.latency(nanoseconds: latency.max))
            try log.append(scenario: scenario, metric: "errors", value: Format.count(headline.errors))
            if settings.findMax {
                try log.append(scenario: scenario, metric: "max rate held (p99 ≤ \(Format.latency(nanoseconds: settings.p99Bound)))",
                               value: maxHeld.map { Format.rate($0) } ?? "none")
            }
        }
        fleet.closeAll()
        // Searching for the maximum ends with a step that failed by design; otherwise any
        // error fails the run.
        return (settings.findMax ? maxHeld != nil : !anyErrors) ? 0 : 1
    }

    /// Runs one step and measures the CPU both sides used meanwhile.
    private static func measureStep(_ step: Int, rate: Double, loads: [EchoLoad], fleet: ClientFleet,
                                    settings: Settings, extraErrors: Int) throws -> EchoStepReport {
        let closedBefore = fleet.closed
        let serverBefore = settings.serverPID.flatMap { try? ProcessStats.read(pid: $0).cpuTicks }
        let ownBefore = try ProcessStats.read(pid: getpid()).cpuTicks
        let started = ContinuousClock.now
        let result = runStep(step, rate: rate, loads: loads, settings: settings)
        let elapsed = (ContinuousClock.now - started).seconds
        let serverAfter = settings.serverPID.flatMap { try? ProcessStats.read(pid: $0).cpuTicks }
        let ownAfter = try ProcessStats.read(pid: getpid()).cpuTicks
        let percent = { (ticks: Int) in Double(ticks) / Double(ProcessStats.ticksPerSecond) / elapsed * 100 }
        var serverCPU: Double?
        if let serverBefore, let serverAfter { serverCPU = percent(serverAfter - serverBefore) }
        let errors = max(0, result.outstanding) + result.badEchoes + result.unsendable + (fleet.closed - closedBefore) + extraErrors
        return EchoStepReport(rate: rate, result: result, achieved: Double(result.receivedInWindow) / settings.duration.seconds,
                              errors: errors, serverCPU: serverCPU, benchCPU: percent(ownAfter - ownBefore))
    }

    /// One step: every loop sends its share from a common start; then waits for the
    /// stragglers (bounded by `--drain`) and collects the loops' results.
    private static func runStep(_ step: Int, rate: Double, loads: [EchoLoad], settings: Settings) -> EchoStepResult {
        let start = MonotonicClock.now() + 20_000_000
        let share = rate / Double(loads.count)
        for load in loads {
            let warmup = settings.warmup, duration = settings.duration
            load.clients.loop.execute { load.startStep(step, rate: share, start: start, warmup: warmup, duration: duration) }
        }
        let sendingEnds = start + (settings.warmup + settings.duration).nanoseconds
        while MonotonicClock.now() < sendingEnds {
            usleep(UInt32(min(100_000, max(1_000, (sendingEnds - MonotonicClock.now()) / 1_000))))
        }
        let drainEnds = MonotonicClock.now() + settings.drain.nanoseconds
        var merged = collect(loads)
        while merged.outstanding > 0 && MonotonicClock.now() < drainEnds {
            usleep(20_000)
            merged = collect(loads)
        }
        return merged
    }

    private static func collect(_ loads: [EchoLoad]) -> EchoStepResult {
        LoopTasks.gather(loads, loop: { $0.clients.loop }) { $0.snapshot() }
            .reduce(into: EchoStepResult()) { $0.merge($1) }
    }

    private static func parse(_ options: CommandLineOptions) throws(BenchError) -> Settings {
        let target = try LoopbackAddresses.target(host: options.string("host", default: "127.0.0.1"),
                                                  port: options.int("port", in: 1...65535))
        var sources: [SocketAddress] = []
        if let range = options.optionalString("source-ips") {
            for host in try LoopbackAddresses.range(range) { sources.append(try LoopbackAddresses.target(host: host, port: 0)) }
        }
        var pid: Int32?
        if options.optionalString("server-pid") != nil { pid = Int32(try options.int("server-pid", in: 1...Int(Int32.max))) }
        return Settings(
            target: target,
            path: try options.string("path", default: "/ws"),
            connections: try options.int("connections", default: 1000, in: 1...1_000_000),
            rate: try options.double("rate", default: 1000, in: 1...100_000_000),
            duration: .seconds(try options.double("duration", default: 10, in: 0.1...3600)),
            warmup: .seconds(try options.double("warmup", default: 1, in: 0...600)),
            size: try options.int("size", default: 64, in: EchoLoad.headerSize...65_536),
            loops: try options.int("loops", default: 2, in: 1...64),
            sources: sources,
            window: try options.int("window", default: 100, in: 1...100_000),
            drain: .seconds(try options.double("drain", default: 2, in: 0...600)),
            repeats: try options.int("repeat", default: 1, in: 1...100),
            findMax: options.flag("find-max"),
            p99Bound: UInt64(try options.double("p99-bound-ms", default: 10, in: 0.001...600_000) * 1_000_000),
            stepFactor: try options.double("step-factor", default: 1.5, in: 1.01...100),
            maxRate: try options.double("max-rate", default: 1_000_000, in: 1...100_000_000),
            serverPID: pid,
            results: options.optionalString("results").map { ResultLog(path: $0) },
            markdown: options.flag("markdown"))
    }
}
