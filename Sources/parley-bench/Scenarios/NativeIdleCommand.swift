import ParleyProtocol
import Glibc
import ParleyNet

/// `native-idle`: N signed-in native clients (registered, WebSocket at /v1/ws, `auth` done)
/// held idle against `parley serve`; reports the server's memory per connection and its idle
/// CPU, and extrapolates to a million connections.
enum NativeIdleCommand: BenchCommand {
    static let name = "native-idle"
    static let summary = "N authenticated native clients held idle: parley serve's memory per connection"
    static let help = """
        --port P            parley serve's port (required)
        --server-pid N      its process id (required: its memory is what is measured)
        --host H            its loopback address (default 127.0.0.1)
        --count N           clients (default 10000; one process holds at most ~19,900)
        --loops N           client event loops (default 2)
        --source-ips A-B    bind client sockets to these loopback addresses, round-robin
        --idle-window S     seconds to watch the server's CPU while they are idle (default 10)
        --rounds K          open and sign in the clients in K equal rounds, reporting each
                            round's memory growth per connection (default 3)
        --results FILE      append the headline numbers to FILE (see the report command)

        """ + BenchTLS.help
    static let valueOptions: Set<String> = Set(["port", "server-pid", "host", "count", "loops", "source-ips", "idle-window", "rounds",
                                                "results"]).union(BenchTLS.valueOptions)
    static let switchOptions: Set<String> = BenchTLS.switchOptions

    static func run(_ options: CommandLineOptions) throws -> Int32 {
        let host = try options.string("host", default: "127.0.0.1")
        let target = MessagingSettings.Target(server: .parley, address: try LoopbackAddresses.target(host: host, port: options.int("port", in: 1...65535)),
                                              pid: nil)
        let serverPID = Int32(try options.int("server-pid", in: 1...Int(Int32.max)))
        let count = try options.int("count", default: 10_000, in: 1...1_000_000)
        let idleWindow = Duration.seconds(try options.double("idle-window", default: 10, in: 0...3600))
        let rounds = try options.int("rounds", default: 3, in: 1...100)
        var sources: [SocketAddress] = []
        if let range = options.optionalString("source-ips") {
            for address in try LoopbackAddresses.range(range) { sources.append(try LoopbackAddresses.target(host: address, port: 0)) }
        }
        let limit = ProcessSetup.raiseDescriptorLimit()
        guard count + 64 <= limit else {
            throw BenchError.usage("--count \(count) needs more descriptors than this process may open (\(limit))")
        }
        let set = try ConnectionSet(count: count, dialect: .parley, loops: try options.int("loops", default: 2, in: 1...64))
        defer { set.shutdown() }
        set.tls = try BenchTLS.parse(options)

        // Register first: the users' rows and the SQLite cache are not per-connection cost.
        let users = try UserRegistry.register(count: count, prefix: UserRegistry.runPrefix(), host: host, port: target.address.port,
                                              tls: set.tls)
        for (client, user) in zip(set.connections, users) {
            client.userID = user.id
            client.token = user.token
        }
        ProcessSetup.sleep(milliseconds: 1000)
        let baseline = try ProcessStats.read(pid: serverPID)
        let socketsBefore = try SocketStats.read()
        let slabBefore = KernelSlabStats.read()
        let connectStart = ContinuousClock.now
        // In rounds: the first round's growth includes the heap that the sign-in burst's
        // transient allocations (JSON, database reads, tasks) leave behind in malloc's arenas;
        // later rounds mostly reuse it, so their growth is closer to what a connection keeps.
        var opened = 0, signedIn = 0
        var roundGrowth: [Double] = []
        var previous = baseline.residentBytes
        for round in 0..<rounds {
            let slice = Array(set.connections[(count * round / rounds)..<(count * (round + 1) / rounds)])
            opened += set.open(slice, target: target.address, path: ScenarioSetup.parleyPath, sources: sources)
            let roundSignedIn = set.perform(slice) { (client: BenchConnection, done: @escaping (Bool) -> Void) in
                client.request(Op.Auth.self, AuthParameters(token: client.token)) { result in done(result.failureReason == nil) }
            }.filter { $0 == true }.count
            signedIn += roundSignedIn
            ProcessSetup.sleep(milliseconds: 1000)
            let now = try ProcessStats.read(pid: serverPID).residentBytes
            roundGrowth.append(Double(now - previous) / Double(max(1, roundSignedIn)))
            previous = now
        }
        let connectTime = ContinuousClock.now - connectStart
        Console.line("native-idle: \(Format.count(opened)) open, \(Format.count(signedIn)) signed in after \(Format.significant(connectTime.seconds)) s")
        ProcessSetup.sleep(milliseconds: 2000)
        let after = try ProcessStats.read(pid: serverPID)
        let socketsAfter = try SocketStats.read()
        let slabAfter = KernelSlabStats.read()
        ProcessSetup.sleep(milliseconds: Int(idleWindow.seconds * 1000))
        let end = try ProcessStats.read(pid: serverPID)
        let held = set.openNow
        let errors = (count - signedIn) + (count - held)

        let perConnection = Double(after.residentBytes - baseline.residentBytes) / Double(max(1, signedIn))
        // Timers cancelled at sign-in (the auth deadline) and at the upgrade (the HTTP idle
        // timer) stay in the heap until their deadlines: the end of the idle window shows
        // how much of the figure above was transient.
        let perConnectionLater = Double(end.residentBytes - baseline.residentBytes) / Double(max(1, signedIn))
        let anonPerConnection = Double(after.anonymousBytes - baseline.anonymousBytes) / Double(max(1, signedIn))
        let idleCPU = Double(end.cpuTicks - after.cpuTicks) / Double(ProcessStats.ticksPerSecond) / max(0.001, idleWindow.seconds) * 100
        var slabPerConnection: Double?
        if let slabBefore, let slabAfter { slabPerConnection = Double(slabAfter.totalBytes - slabBefore.totalBytes) / Double(max(1, signedIn)) }
        // Both ends are on this machine: the kernel's per-socket memory is counted twice.
        let kernelServerSide = (slabPerConnection ?? 0) / 2
        let million = 1_000_000.0

        var table = ResultTable(headers: ["measure", "value"])
        table.add(["clients signed in / held at the end", "\(Format.count(signedIn)) / \(Format.count(held)) of \(Format.count(count))"])
        table.add(["time to open and sign in", "\(Format.significant(connectTime.seconds)) s"])
        table.add(["server RSS baseline → with clients", "\(Format.bytes(Double(baseline.residentBytes))) → \(Format.bytes(Double(after.residentBytes)))"])
        table.add(["server RSS per signed-in connection", Format.bytes(perConnection)])
        table.add(["  of which anonymous (heap)", Format.bytes(anonPerConnection)])
        table.add(["server RSS per connection at the end of the idle window", Format.bytes(perConnectionLater)])
        for (round, growth) in roundGrowth.enumerated() {
            table.add(["  growth per connection, round \(round + 1) of \(rounds)", Format.bytes(growth)])
        }
        if let slabPerConnection { table.add(["kernel slab per connection, both ends", Format.bytes(slabPerConnection)]) }
        table.add(["TCP buffer memory (sockstat) before → after",
                   "\(Format.bytes(Double(socketsBefore.tcpMemoryBytes))) → \(Format.bytes(Double(socketsAfter.tcpMemoryBytes)))"])
        table.add(["server CPU while idle (\(Format.significant(idleWindow.seconds)) s)", Format.percent(idleCPU)])
        table.add(["1,000,000 connections: server heap (RSS per connection × 10⁶)", Format.bytes(perConnection * million)])
        table.add(["1,000,000 connections: + kernel, server side (slab ÷ 2 × 10⁶)", Format.bytes((perConnection + kernelServerSide) * million)])
        table.add(["errors", Format.count(errors)])
        Console.line("")
        table.print()
        for line in ErrorTally.lines(set.errors.snapshot) { Console.line("  error: \(line)") }
        if let path = options.optionalString("results") {
            let log = ResultLog(path: path)
            let scenario = "signed-in native clients on parley serve\(set.tls == nil ? "" : " over TLS") (\(Format.count(count)))"
            try log.append(scenario: scenario, metric: "held", value: Format.count(held))
            if errors == 0 { try log.appendDatum(IssueAims.idleKey, perConnection / 1024) }
            try log.append(scenario: scenario, metric: "server RSS per connection (2 s / \(Format.significant(idleWindow.seconds + 2)) s after)",
                           value: "\(Format.bytes(perConnection)) / \(Format.bytes(perConnectionLater))")
            try log.append(scenario: scenario, metric: "× 1,000,000 (+ kernel, server side)",
                           value: "\(Format.bytes(perConnection * million)) (\(Format.bytes((perConnection + kernelServerSide) * million)))")
            if rounds > 1, let last = roundGrowth.last {
                try log.append(scenario: scenario, metric: "growth per connection in the last of \(rounds) rounds", value: Format.bytes(last))
            }
            try log.append(scenario: scenario, metric: "server CPU idle", value: Format.percent(idleCPU))
            try log.append(scenario: scenario, metric: "errors", value: Format.count(errors))
        }
        set.close()
        return errors == 0 ? 0 : 1
    }
}
