import Glibc
import ParleyNet

/// `connections`: how many idle WebSockets the server holds and what each costs it. Spreads
/// the connections over child load processes (each process may open only 20,000 files),
/// each binding source addresses from a loopback range, waits until all are open, then
/// reports the server's memory per connection (baseline subtracted), the kernel's socket
/// memory and the server's CPU use while the connections sit idle.
enum ConnectionsCommand: BenchCommand {
    static let name = "connections"
    static let summary = "idle WebSockets held by the server: count, RSS per connection, socket memory, idle CPU"
    static let help = """
        --port P             the server's port (required)
        --host H             its loopback address (default 127.0.0.1)
        --path PATH          WebSocket path (default /ws)
        --server-pid PID     the server process, for its RSS and CPU time (required)
        --count N            connections to open (required)
        --processes K        load processes to spread them over (default 2)
        --source-ips A-B     loopback source addresses, round-robin (default 127.0.0.2-127.0.0.9)
        --loops N            event loops per load process (default 1)
        --window N           handshakes in flight per loop (default 200)
        --connect-timeout S  give up waiting for the connections after this long (default 120)
        --settle S           pause between the last connection and the "after" figures (default 2)
        --idle-window S      seconds over which the server's idle CPU is measured (default 10)
        --hold S             the workers exit after this long in any case (default: enough for the run)
        --results FILE       append the headline numbers to FILE (see the report command)
        --markdown           print the table as Markdown
        """
    static let valueOptions: Set<String> = ["port", "host", "path", "server-pid", "count", "processes", "source-ips",
                                            "loops", "window", "connect-timeout", "settle", "idle-window", "hold", "results"]
    static let switchOptions: Set<String> = ["markdown"]

    /// One process may hold this many connections: its 20,000 descriptors less a reserve.
    static let maxPerProcess = 19_900

    static func run(_ options: CommandLineOptions) throws -> Int32 {
        let host = try options.string("host", default: "127.0.0.1")
        let port = try options.int("port", in: 1...65535)
        _ = try LoopbackAddresses.target(host: host, port: port)
        let sourceRange = try options.string("source-ips", default: "127.0.0.2-127.0.0.9")
        _ = try LoopbackAddresses.range(sourceRange)
        let serverPID = Int32(try options.int("server-pid", in: 1...Int(Int32.max)))
        let count = try options.int("count", in: 1...10_000_000)
        let processes = try options.int("processes", default: 2, in: 1...256)
        guard (count + processes - 1) / processes <= maxPerProcess else {
            throw BenchError.usage("\(count) connections over \(processes) processes is more than \(maxPerProcess) per process; raise --processes")
        }
        let connectTimeout = Duration.seconds(try options.double("connect-timeout", default: 120, in: 1...3600))
        let settle = Duration.seconds(try options.double("settle", default: 2, in: 0...600))
        let idleWindow = Duration.seconds(try options.double("idle-window", default: 10, in: 0.1...3600))
        let hold = try options.double("hold", default: (connectTimeout + settle + idleWindow).seconds + 30, in: 1...86_400)
        let markdown = options.flag("markdown")

        // The baseline: the server before any of these connections exist.
        let baseline = try ProcessStats.read(pid: serverPID)
        let socketsBefore = try SocketStats.read()
        let slabBefore = KernelSlabStats.read()
        Console.line("connections: server pid \(serverPID) baseline RSS \(Format.bytes(Double(baseline.residentBytes))), "
            + "\(baseline.openDescriptors) descriptors; opening \(Format.count(count)) over \(processes) process(es)")

        let executable = try ownExecutable()
        var workers: [ChildProcess] = []
        var progress: [WorkerProgress] = []
        defer { for worker in workers { worker.stop(grace: .seconds(5)) } }
        for index in 0..<processes {
            let share = count / processes + (index < count % processes ? 1 : 0)
            workers.append(try ChildProcess(arguments: [
                executable, "connections-worker", "--host", host, "--port", String(port),
                "--path", try options.string("path", default: "/ws"), "--count", String(share),
                "--source-ips", sourceRange, "--index", String(index), "--hold", String(hold),
                "--loops", String(try options.int("loops", default: 1, in: 1...64)),
                "--window", String(try options.int("window", default: 200, in: 1...100_000)),
            ]))
            progress.append(WorkerProgress())
        }

        // Wait until every worker has settled (all its connections opened or failed).
        let clock = ContinuousClock()
        let connectStart = clock.now
        var nextReport = clock.now + .seconds(1)
        while !progress.allSatisfy(\.settled) {
            try pump(workers, &progress, waitMilliseconds: 100)
            if clock.now - connectStart > connectTimeout {
                Console.line("connections: gave up waiting after \(connectTimeout)")
                break
            }
            if clock.now >= nextReport {
                Console.line("  open \(Format.count(progress.reduce(0) { $0 + $1.open })) / \(Format.count(count)), "
                    + "failed \(Format.count(progress.reduce(0) { $0 + $1.failed }))")
                nextReport = clock.now + .seconds(1)
            }
        }
        let connectTime = clock.now - connectStart
        let openedAll = progress.reduce(0) { $0 + $1.open }
        Console.line("connections: \(Format.count(openedAll)) open after \(Format.significant(connectTime.seconds)) s; settling \(settle.seconds) s")
        try pumpFor(settle, workers, &progress)

        let after = try ProcessStats.read(pid: serverPID)
        let socketsAfter = try SocketStats.read()
        let slabAfter = KernelSlabStats.read()
        Console.line("connections: measuring the server's CPU over \(idleWindow.seconds) s idle")
        let idleStart = clock.now
        try pumpFor(idleWindow, workers, &progress)
        let idleElapsed = clock.now - idleStart
        let end = try ProcessStats.read(pid: serverPID)
        let held = progress.reduce(0) { $0 + $1.open }
        let failed = progress.reduce(0) { $0 + $1.failed }
        let closedEarly = progress.reduce(0) { $0 + $1.closed }
        var errors: [String: Int] = [:]
        for worker in progress { for (reason, n) in worker.errors { errors[reason, default: 0] += n } }

        // The clients leave; does the server give the memory back?
        for worker in workers { worker.stop(grace: .seconds(10)) }
        usleep(2_000_000)
        let afterClose = try? ProcessStats.read(pid: serverPID)

        let rssPerConnection = Double(after.residentBytes - baseline.residentBytes) / Double(max(1, openedAll))
        let anonPerConnection = Double(after.anonymousBytes - baseline.anonymousBytes) / Double(max(1, openedAll))
        let idleCPU = Double(end.cpuTicks - after.cpuTicks) / Double(ProcessStats.ticksPerSecond) / idleElapsed.seconds * 100
        var table = ResultTable(headers: ["measure", "value"])
        table.add(["connections requested", Format.count(count)])
        table.add(["held at the end of the idle window", Format.count(held)])
        table.add(["failed to open / closed while held", "\(Format.count(failed)) / \(Format.count(closedEarly))"])
        table.add(["time to open (rate)", "\(Format.significant(connectTime.seconds)) s (\(Format.rate(Double(openedAll) / connectTime.seconds))/s)"])
        table.add(["server descriptors before → after", "\(Format.count(baseline.openDescriptors)) → \(Format.count(after.openDescriptors))"])
        table.add(["server RSS baseline → with connections", "\(Format.bytes(Double(baseline.residentBytes))) → \(Format.bytes(Double(after.residentBytes)))"])
        table.add(["server RSS per connection (baseline subtracted)", Format.bytes(rssPerConnection)])
        table.add(["  of which anonymous (heap)", Format.bytes(anonPerConnection)])
        if let afterClose {
            table.add(["server RSS 2 s after the clients left", Format.bytes(Double(afterClose.residentBytes))])
        }
        table.add(["server CPU while idle (\(Format.significant(idleElapsed.seconds)) s)", Format.percent(idleCPU)])
        table.add(["TCP sockets in use before → after (both ends)", "\(Format.count(socketsBefore.tcpInUse)) → \(Format.count(socketsAfter.tcpInUse))"])
        table.add(["TCP buffer memory (sockstat mem) before → after",
                   "\(Format.bytes(Double(socketsBefore.tcpMemoryBytes))) → \(Format.bytes(Double(socketsAfter.tcpMemoryBytes)))"])
        var slabPerConnection: Double?
        if let slabBefore, let slabAfter {
            let perConnection = Double(slabAfter.totalBytes - slabBefore.totalBytes) / Double(max(1, openedAll))
            slabPerConnection = perConnection
            table.add(["kernel slab per connection, both ends (TCP, inode, file, epoll …)", Format.bytes(perConnection)])
        }
        Console.line("")
        table.print(markdown: markdown)
        if let slabBefore, let slabAfter {
            let growth = KernelSlabStats.watchedCaches.compactMap { cache -> (String, Double)? in
                let bytes = (slabAfter.bytesByCache[cache] ?? 0) - (slabBefore.bytesByCache[cache] ?? 0)
                return bytes > 0 ? (cache, Double(bytes) / Double(max(1, openedAll))) : nil
            }
            Console.line("kernel slab growth per connection (both ends): "
                + growth.sorted { $0.1 > $1.1 }.map { "\($0.0) \(Format.bytes($0.1))" }.joined(separator: ", "))
        }
        for line in ErrorTally.lines(errors) { Console.line("  error: \(line)") }

        if let path = options.optionalString("results") {
            let log = ResultLog(path: path)
            let scenario = "idle WebSockets (\(Format.count(count)) requested)"
            try log.append(scenario: scenario, metric: "held", value: Format.count(held))
            try log.append(scenario: scenario, metric: "server RSS per connection", value: Format.bytes(rssPerConnection))
            try log.append(scenario: scenario, metric: "sockstat TCP mem (both ends)", value: Format.bytes(Double(socketsAfter.tcpMemoryBytes)))
            if let slabPerConnection {
                try log.append(scenario: scenario, metric: "kernel slab per connection (both ends)", value: Format.bytes(slabPerConnection))
            }
            try log.append(scenario: scenario, metric: "server CPU idle", value: Format.percent(idleCPU))
            try log.append(scenario: scenario, metric: "errors", value: Format.count(failed + closedEarly))
        }
        return failed + closedEarly == 0 && held == count ? 0 : 1
    }

    /// Reads whatever the workers said, waiting up to the given time; fails when a worker
    /// ended before it was told to.
    private static func pump(_ workers: [ChildProcess], _ progress: inout [WorkerProgress], waitMilliseconds: Int32) throws(BenchError) {
        ChildProcess.waitForOutput(workers, timeoutMilliseconds: waitMilliseconds)
        for (index, worker) in workers.enumerated() {
            for line in worker.readLines() {
                if let unknown = progress[index].consume(line) { Console.line("  worker \(index): \(unknown)") }
            }
            if let ended = worker.checkTermination() {
                throw .failed("load worker \(index) \(ended) before the measurement finished")
            }
        }
    }

    private static func pumpFor(_ duration: Duration, _ workers: [ChildProcess], _ progress: inout [WorkerProgress]) throws(BenchError) {
        let clock = ContinuousClock()
        let end = clock.now + duration
        while clock.now < end {
            let left = Int32(max(1, min(100, (end - clock.now).seconds * 1000)))
            try pump(workers, &progress, waitMilliseconds: left)
        }
    }

    private static func ownExecutable() throws(BenchError) -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { throw .system("cannot find this program's path (/proc/self/exe)") }
        return String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
