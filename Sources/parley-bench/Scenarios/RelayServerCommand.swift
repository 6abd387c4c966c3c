import Glibc
import ParleyNet

/// `relay-server`: the baseline for the messaging scenarios. A WebSocket relay on ParleyNet
/// with nothing of Parley's: no storage, no JSON, no permissions — a client subscribes to
/// topics and its publications are forwarded to the other subscribers (see `RelayFrames`).
enum RelayServerCommand: BenchCommand {
    static let name = "relay-server"
    static let summary = "bare WebSocket relay on ParleyNet (the transport baseline for direct and group)"
    static let help = """
        --port P     port to listen on; 0 picks a free one (default 0)
        --host H     loopback address to listen on (default 127.0.0.1)
        --loops N    event-loop threads (default: number of cores)

        Prints "relay-server port=P pid=N ..." once listening; stops on SIGTERM or SIGINT.
        """
    static let valueOptions: Set<String> = ["port", "host", "loops"]

    static func run(_ options: CommandLineOptions) throws -> Int32 {
        ProcessSetup.blockShutdownSignals()
        let descriptorLimit = ProcessSetup.raiseDescriptorLimit()
        let address = try LoopbackAddresses.target(host: options.string("host", default: "127.0.0.1"),
                                                   port: options.int("port", default: 0, in: 0...65535))
        let loops = try options.int("loops", default: EventLoopGroup.coreCount, in: 1...256)
        var configuration = HTTPServer.Configuration(originPolicy: .allowAny)
        configuration.tcp.maxConnections = max(16, descriptorLimit - 64)
        let group = try EventLoopGroup(loopCount: loops, name: "relay-loop")
        let server: HTTPServer
        do {
            server = try HTTPServer(group: group, address: address, configuration: configuration,
                                    responder: RelayResponder(hub: RelayHub()))
        } catch {
            group.shutdown()
            throw BenchError.system("cannot listen on \(address): \(error)")
        }
        Console.line("relay-server port=\(server.localAddress.port) pid=\(getpid()) loops=\(loops)")
        let signal = ProcessSetup.waitForShutdownSignal()
        _ = server.shutdown(timeout: .seconds(2))
        group.shutdown()
        Console.error("relay-server: stopped by signal \(signal)")
        return 0
    }
}
