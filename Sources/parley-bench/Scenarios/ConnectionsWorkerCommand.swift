import Glibc
import ParleyNet

/// `connections-worker` (hidden): one load process of the `connections` scenario. Opens its
/// share of idle WebSockets, reports progress as lines on standard output, and holds them
/// until its standard input ends (the parent closed it, or the parent is gone) or `--hold`
/// seconds pass, whichever comes first.
///
/// Output lines, for the parent:
///     status opened=N failed=N closed=N settled=0|1
///     error<TAB>count<TAB>reason      (cumulative; follows each status line)
enum ConnectionsWorkerCommand: BenchCommand {
    static let name = "connections-worker"
    static let summary = "one load process of the connections scenario (started by it)"
    static let help = """
        --port P --host H --path PATH   the server
        --count N                       WebSockets to open and hold
        --source-ips A-B                loopback source addresses, round-robin
        --index I                       this worker's number (staggers the source addresses)
        --hold S                        exit after this many seconds at the latest
        --loops N                       client event loops (default 1)
        --window N                      handshakes in flight per loop (default 200)
        """
    static let valueOptions: Set<String> = ["port", "host", "path", "count", "source-ips", "index", "hold", "loops", "window"]
    static let hidden = true

    static func run(_ options: CommandLineOptions) throws -> Int32 {
        ProcessSetup.unblockShutdownSignals()
        let target = try LoopbackAddresses.target(host: options.string("host", default: "127.0.0.1"),
                                                  port: options.int("port", in: 1...65535))
        let count = try options.int("count", in: 0...1_000_000)
        let loops = try options.int("loops", default: 1, in: 1...64)
        var sources: [SocketAddress] = []
        if let range = options.optionalString("source-ips") {
            for host in try LoopbackAddresses.range(range) { sources.append(try LoopbackAddresses.target(host: host, port: 0)) }
        }
        let hold = Duration.seconds(try options.double("hold", in: 1...86_400))
        let descriptorLimit = ProcessSetup.raiseDescriptorLimit()
        guard count + 32 <= descriptorLimit else {
            throw BenchError.usage("--count \(count) needs more descriptors than this process may open (\(descriptorLimit))")
        }

        let fleet = try ClientFleet(loops: loops)
        fleet.connect(count: count, target: target, path: try options.string("path", default: "/ws"), sources: sources,
                      sourceOffset: try options.int("index", default: 0) * loops,
                      windowPerLoop: try options.int("window", default: 200, in: 1...100_000))
        let clock = ContinuousClock()
        let deadline = clock.now + hold
        var nextReport = clock.now
        var wasSettled = false
        while clock.now < deadline {
            if parentHasGone(waitMilliseconds: 100) { break }
            let settled = fleet.settled
            if clock.now >= nextReport || settled != wasSettled {
                report(fleet, settled: settled)
                wasSettled = settled
                // Often while connecting, so the parent's progress is current; rarely after.
                nextReport = clock.now + (settled ? .seconds(1) : .milliseconds(250))
            }
        }
        report(fleet, settled: fleet.settled)
        // The kernel closes every socket as the process ends; the server sees them go.
        return 0
    }

    private static func report(_ fleet: ClientFleet, settled: Bool) {
        var lines = ["status opened=\(fleet.opened) failed=\(fleet.failed) closed=\(fleet.closed) settled=\(settled ? 1 : 0)"]
        for (reason, count) in fleet.errors { lines.append("error\t\(count)\t\(reason)") }
        Console.line(lines.joined(separator: "\n"))
    }

    /// Whether standard input has ended (or says "stop"), waiting up to the given time.
    private static func parentHasGone(waitMilliseconds: Int32) -> Bool {
        var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, waitMilliseconds) > 0 else { return false }
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
        if count <= 0 { return !(count < 0 && errno == EINTR) }
        return String(decoding: buffer[0..<count], as: UTF8.self).contains("stop")
    }
}
