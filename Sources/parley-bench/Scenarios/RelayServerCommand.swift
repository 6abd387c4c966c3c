import Glibc
import ParleyNet

/// `relay-server`: the baseline for the messaging scenarios. A WebSocket relay on ParleyNet
/// with nothing of Parley's: no storage, no JSON, no permissions — a client subscribes to
/// topics and its publications are forwarded to the other subscribers (see `RelayFrames`).
/// With `--durable DIR`, each publication is first made durable in a segment log (group
/// commit on the log's own thread, `DurableRelayLog`): the floor of a durable 1:1 message.
enum RelayServerCommand: BenchCommand {
    static let name = "relay-server"
    static let summary = "bare WebSocket relay on ParleyNet (the transport baseline for direct and group); --durable: each message synced first"
    static let help = """
        --port P     port to listen on; 0 picks a free one (default 0)
        --host H     loopback address to listen on (default 127.0.0.1)
        --loops N    event-loop threads (default: number of cores)
        --durable DIR
                     the durable relay: every publication is appended to a segment log in
                     DIR (created if need be) and acknowledged and forwarded only once its
                     batch is synced (one fdatasync per batch of whatever arrived meanwhile)
        --durable-segment-bytes B
                     with --durable: a new segment file starts when the current one would
                     pass B bytes (default 67108864, 64 MiB)
        --durable-batch N
                     with --durable: the most publications one batch (one sync) takes
                     (default 4096)

        Prints "relay-server port=P pid=N ..." once listening; stops on SIGTERM or SIGINT.
        """
    static let valueOptions: Set<String> = ["port", "host", "loops", "durable", "durable-segment-bytes", "durable-batch"]

    static func run(_ options: CommandLineOptions) throws -> Int32 {
        ProcessSetup.blockShutdownSignals()
        let descriptorLimit = ProcessSetup.raiseDescriptorLimit()
        let address = try LoopbackAddresses.target(host: options.string("host", default: "127.0.0.1"),
                                                   port: options.int("port", default: 0, in: 0...65535))
        let loops = try options.int("loops", default: EventLoopGroup.coreCount, in: 1...256)
        let durable = try durableSettings(options)
        var configuration = HTTPServer.Configuration(originPolicy: .allowAny)
        configuration.tcp.maxConnections = max(16, descriptorLimit - 64)
        let hub = try durable.map { settings throws(BenchError) in try RelayHub(durable: settings) } ?? RelayHub()
        let group: EventLoopGroup
        let server: HTTPServer
        do {
            group = try EventLoopGroup(loopCount: loops, name: "relay-loop")
        } catch {
            hub.durable?.close()
            throw error
        }
        do {
            server = try HTTPServer(group: group, address: address, configuration: configuration,
                                    responder: RelayResponder(hub: hub))
        } catch {
            hub.durable?.close()
            group.shutdown()
            throw BenchError.system("cannot listen on \(address): \(error)")
        }
        let mode = durable.map { " durable=\($0.directory)" } ?? ""
        Console.line("relay-server port=\(server.localAddress.port) pid=\(getpid()) loops=\(loops)\(mode)")
        let signal = ProcessSetup.waitForShutdownSignal()
        _ = server.shutdown(timeout: .seconds(2))
        // The log's last batches still hand their frames to the loops: close it first.
        hub.durable?.close()
        group.shutdown()
        if let log = hub.durable?.log {
            let statistics = log.statistics
            Console.error("relay-server: \(statistics.records) records durable in \(statistics.syncs) syncs")
        }
        Console.error("relay-server: stopped by signal \(signal)")
        return 0
    }

    /// The durable relay's settings, or nil for the bare relay.
    static func durableSettings(_ options: CommandLineOptions) throws(BenchError) -> DurableRelayLog.Settings? {
        guard let directory = options.optionalString("durable") else {
            for option in ["durable-segment-bytes", "durable-batch"] where options.optionalString(option) != nil {
                throw .usage("--\(option) needs --durable DIR")
            }
            return nil
        }
        guard !directory.isEmpty else { throw .usage("--durable takes a directory") }
        var settings = DurableRelayLog.Settings(directory: directory)
        settings.segmentBytes = try options.int("durable-segment-bytes", default: settings.segmentBytes, in: 4096...(1 << 40))
        settings.batchLimit = try options.int("durable-batch", default: settings.batchLimit, in: 1...1_000_000)
        return settings
    }
}
