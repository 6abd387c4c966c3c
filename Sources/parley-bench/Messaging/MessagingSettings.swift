import ParleyNet

/// The options every messaging scenario (`direct`, `group`) shares: the servers to drive,
/// the rate and its schedule, the search for the highest rate, and where results go.
struct MessagingSettings {
    /// A server to drive.
    struct Target {
        var server: BenchServer
        /// The wire language its clients speak.
        var dialect: Dialect { server.dialect }
        /// The server (the first node of a cluster): users are registered here.
        var address: SocketAddress
        /// Its process ids, one per node of a cluster; their CPU is added up.
        var pids: [Int32]
        /// Every node of a cluster, `address` first; clients are spread over them by index
        /// (client i on node i mod n), so a pair's partners (2i, 2i+1) sit on different nodes.
        var nodes: [SocketAddress]

        init(server: BenchServer, address: SocketAddress, pid: Int32?, nodes: [SocketAddress] = []) {
            self.server = server
            self.address = address
            self.pids = pid.map { [$0] } ?? []
            self.nodes = nodes.isEmpty ? [address] : nodes
        }
    }

    var targets: [Target]
    var host: String
    var sources: [SocketAddress]
    var rate: Double
    var duration: Duration
    var warmup: Duration
    var size: Int
    var loops: Int
    var drain: Duration
    var findMax: Bool
    var p99Bound: UInt64
    var stepFactor: Double
    var maxRate: Double
    var results: ResultLog?
    var markdown: Bool
    /// Every how many measured sends one is a message action instead (an edit or a reaction
    /// on the sender's last message, alternately); 0: none (`--action-every`).
    var actionEvery: Int = 0
    /// `--tls`: the client context for parley serve (not the relay).
    var tls: TLSContext?
    /// `--searches`: with `--find-max`, how many whole searches run; the median is reported.
    var searches: Int = 1
    /// `--retries`: with `--find-max`, how often a failed step is repeated before it counts.
    var retries: Int = 0
    /// `--refine`: with `--find-max`, how many bisecting steps follow the rise.
    var refinements: Int = 0
    /// How long to wait for the server to go quiet before a search and before a repeat
    /// (`--settle-cpu`, `--settle-seconds`, `--settle-timeout`); nil: no wait.
    var settle: ServerSettle?

    static let help = """
        --parley-port P     drive parley serve at this port (native protocol, /v1/ws); several
                            ports, comma-separated, are the nodes of one cluster: client i
                            connects to node i mod n, so 1:1 partners sit on different nodes
        --relay-port P      drive parley-bench relay-server at this port (the transport baseline)
        --durable-relay-port P
                            (direct) drive relay-server --durable at this port (the transport
                            and a synced log: the floor of a durable message)
        --parley-pid N, --relay-pid N, --durable-relay-pid N
                            also report that server's CPU use (a cluster: its nodes' pids,
                            comma-separated, added up)
        --host H            the servers' loopback address (default 127.0.0.1)
        --source-ips A-B    bind client sockets to these loopback addresses, round-robin
                            (parley serve limits connections per address)
        --rate R            messages sent per second over all senders (default 1000)
        --duration S        measured seconds per step (default 10)
        --warmup S          seconds sent before measuring, per step (default 1)
        --size B            message text in bytes, at least 28 (default 64)
        --loops N           client event loops (default 2)
        --drain S           seconds to wait for late deliveries after a step (default 3)
        --find-max          raise the rate by --step-factor each step until a rate fails
        --searches K        with --find-max: run the whole search K times and report the
                            median highest rate with its spread (default 3)
        --retries N         with --find-max: repeat a failed step up to N times before the
                            rate counts as failed (default 2)
        --refine N          with --find-max: after the first rate that fails, bisect N times
                            between it and the highest that held (geometric middle, 3
                            significant digits), so 2 narrow a --step-factor of 2 to ≈ 1.19
                            (default 0)
        --settle-cpu PCT    before each search and each repeat, wait until the server's CPU
                            (--parley-pid etc.) stays below PCT % of a core (default 10) ...
        --settle-write-kib K ... and its writes to storage (/proc/PID/io) below K KiB/s
                            (default 1024) ...
        --settle-seconds S  ... for S seconds in a row (default 2) ...
        --settle-timeout S  ... but at most S seconds in all (default 30; 0: no wait)
        --p99-bound-ms MS   a step fails when the delivery p99 exceeds this (default 20)
        --step-factor F     rate multiplier between steps (default 1.5)
        --max-rate R        stop raising here (default 10000000)
        --results FILE      append the headline numbers to FILE (see the report command)
        --markdown          print tables as Markdown
        --action-every N    (Parley) every Nth send is a message action instead: an edit of
                            the sender's last message or a reaction to it, alternately,
                            measured like a message (its ack, and the peer's message.updated);
                            5 makes 20 % of the traffic actions (default 0: none)
        """ + "\n" + BenchTLS.help
    static let valueOptions: Set<String> = Set(["parley-port", "relay-port", "durable-relay-port", "parley-pid", "relay-pid",
                                            "durable-relay-pid", "host", "source-ips",
                                            "rate", "duration", "warmup", "size", "loops", "drain", "p99-bound-ms",
                                            "step-factor", "max-rate", "results", "action-every", "searches", "retries", "refine",
                                            "settle-cpu", "settle-write-kib", "settle-seconds", "settle-timeout"]).union(BenchTLS.valueOptions)
    static let switchOptions: Set<String> = Set(["find-max", "markdown"]).union(BenchTLS.switchOptions)

    /// A comma-separated list of whole numbers (empty when the option is absent).
    private static func numbers(_ options: CommandLineOptions, _ name: String, in range: ClosedRange<Int>) throws(BenchError) -> [Int] {
        guard let text = options.optionalString(name) else { return [] }
        var numbers: [Int] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let number = Int(part.trimmingCharacters(in: .whitespaces)), range.contains(number) else {
                throw .usage("--\(name) takes numbers in \(range.lowerBound)...\(range.upperBound), comma-separated; got '\(text)'")
            }
            numbers.append(number)
        }
        return numbers
    }

    /// `servers`: the servers this scenario can drive, in the order they are driven.
    static func parse(_ options: CommandLineOptions, servers: [BenchServer], defaultBoundMilliseconds: Double) throws(BenchError) -> MessagingSettings {
        let host = try options.string("host", default: "127.0.0.1")
        var targets: [Target] = []
        for server in BenchServer.allCases where options.optionalString("\(server.rawValue)-port") != nil && !servers.contains(server) {
            throw .usage("--\(server.rawValue)-port is not for this scenario")
        }
        for server in servers {
            guard options.optionalString("\(server.rawValue)-port") != nil else { continue }
            let ports = try numbers(options, "\(server.rawValue)-port", in: 1...65535)
            let nodes = try ports.map { port throws(BenchError) in try LoopbackAddresses.target(host: host, port: port) }
            var target = Target(server: server, address: nodes[0], pid: nil, nodes: nodes)
            target.pids = try numbers(options, "\(server.rawValue)-pid", in: 1...Int(Int32.max)).map { Int32($0) }
            targets.append(target)
        }
        guard !targets.isEmpty else {
            throw .usage("give at least one of " + servers.map { "--\($0.rawValue)-port" }.joined(separator: ", "))
        }
        var sources: [SocketAddress] = []
        if let range = options.optionalString("source-ips") {
            for address in try LoopbackAddresses.range(range) { sources.append(try LoopbackAddresses.target(host: address, port: 0)) }
        }
        let settleTimeout = try options.double("settle-timeout", default: 30, in: 0...3600)
        let settle = settleTimeout == 0 ? nil : ServerSettle(
            thresholdPercent: try options.double("settle-cpu", default: 10, in: 0.1...10_000),
            writeBytesPerSecond: try options.double("settle-write-kib", default: 1024, in: 1...100_000_000) * 1024,
            window: .seconds(try options.double("settle-seconds", default: 2, in: 0.1...600)),
            timeout: .seconds(settleTimeout))
        return MessagingSettings(
            targets: targets, host: host, sources: sources,
            rate: try options.double("rate", default: 1000, in: 1...100_000_000),
            duration: .seconds(try options.double("duration", default: 10, in: 0.1...3600)),
            warmup: .seconds(try options.double("warmup", default: 1, in: 0...600)),
            size: try options.int("size", default: 64, in: MessageStamp.headerSize...3000),
            loops: try options.int("loops", default: 2, in: 1...64),
            drain: .seconds(try options.double("drain", default: 3, in: 0...600)),
            findMax: options.flag("find-max"),
            p99Bound: UInt64(try options.double("p99-bound-ms", default: defaultBoundMilliseconds, in: 0.001...600_000) * 1_000_000),
            stepFactor: try options.double("step-factor", default: 1.5, in: 1.01...100),
            maxRate: try options.double("max-rate", default: 10_000_000, in: 1...100_000_000),
            results: options.optionalString("results").map { ResultLog(path: $0) },
            markdown: options.flag("markdown"),
            actionEvery: try options.int("action-every", default: 0, in: 0...1000),
            tls: try BenchTLS.parse(options),
            searches: try options.int("searches", default: 3, in: 1...100),
            retries: try options.int("retries", default: 2, in: 0...10),
            refinements: try options.int("refine", default: 0, in: 0...10),
            settle: settle)
    }
}
