import ParleyNet

/// The options every messaging scenario (`direct`, `group`) shares: the servers to drive,
/// the rate and its schedule, the search for the highest rate, and where results go.
struct MessagingSettings {
    /// A server to drive, in one dialect.
    struct Target {
        var dialect: Dialect
        var address: SocketAddress
        var pid: Int32?
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

    static let help = """
        --parley-port P     drive parley serve at this port (native protocol, /v1/ws)
        --relay-port P      drive parley-bench relay-server at this port (the transport baseline)
        --parley-pid N, --relay-pid N
                            also report that server's CPU use
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
        --p99-bound-ms MS   a step fails when the delivery p99 exceeds this (default 20)
        --step-factor F     rate multiplier between steps (default 1.5)
        --max-rate R        stop raising here (default 10000000)
        --results FILE      append the headline numbers to FILE (see the report command)
        --markdown          print tables as Markdown
        """
    static let valueOptions: Set<String> = ["parley-port", "relay-port", "parley-pid", "relay-pid", "host", "source-ips",
                                            "rate", "duration", "warmup", "size", "loops", "drain", "p99-bound-ms",
                                            "step-factor", "max-rate", "results"]
    static let switchOptions: Set<String> = ["find-max", "markdown"]

    static func parse(_ options: CommandLineOptions, dialects: [Dialect], defaultBoundMilliseconds: Double) throws(BenchError) -> MessagingSettings {
        let host = try options.string("host", default: "127.0.0.1")
        var targets: [Target] = []
        for dialect in dialects {
            guard options.optionalString("\(dialect.rawValue)-port") != nil else { continue }
            let address = try LoopbackAddresses.target(host: host, port: options.int("\(dialect.rawValue)-port", in: 1...65535))
            var pid: Int32?
            if options.optionalString("\(dialect.rawValue)-pid") != nil {
                pid = Int32(try options.int("\(dialect.rawValue)-pid", in: 1...Int(Int32.max)))
            }
            targets.append(Target(dialect: dialect, address: address, pid: pid))
        }
        guard !targets.isEmpty else {
            throw .usage("give at least one of " + dialects.map { "--\($0.rawValue)-port" }.joined(separator: ", "))
        }
        var sources: [SocketAddress] = []
        if let range = options.optionalString("source-ips") {
            for address in try LoopbackAddresses.range(range) { sources.append(try LoopbackAddresses.target(host: address, port: 0)) }
        }
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
            markdown: options.flag("markdown"))
    }
}
