import Glibc
import ParleyNet

/// `echo-server`: the WebSocket echo server on ParleyNet's `HTTPServer` that `ws-echo` and
/// `connections` measure. Prints its port and process id, runs until SIGTERM or SIGINT,
/// then shuts down gracefully (WebSockets get close 1001).
enum EchoServerCommand: BenchCommand {
    static let name = "echo-server"
    static let summary = "WebSocket echo server at /ws on ParleyNet (what ws-echo and connections measure)"
    static let help = """
        --port P     port to listen on; 0 picks a free one (default 0)
        --host H     loopback address to listen on (default 127.0.0.1)
        --loops N    event-loop threads (default: number of cores)
        --max-connections N
                     refuse connections beyond this many (default: the descriptor limit
                     less 64, the reserve parley serve keeps; 0: no limit of its own)

        Prints "echo-server port=P pid=N ..." once listening; stops on SIGTERM or SIGINT.
        """
    static let valueOptions: Set<String> = ["port", "host", "loops", "max-connections"]

    static func run(_ options: CommandLineOptions) throws -> Int32 {
        // Before any thread exists, so that every loop thread inherits the mask and the
        // signals wait for `waitForShutdownSignal` below.
        ProcessSetup.blockShutdownSignals()
        let descriptorLimit = ProcessSetup.raiseDescriptorLimit()
        let address = try LoopbackAddresses.target(host: options.string("host", default: "127.0.0.1"),
                                                   port: options.int("port", default: 0, in: 0...65535))
        let loops = try options.int("loops", default: EventLoopGroup.coreCount, in: 1...256)
        // Like parley serve: stop accepting a little below the descriptor limit, so a
        // connection over the limit is accepted and closed at once instead of meeting EMFILE.
        let maxConnections = try options.int("max-connections", default: max(16, descriptorLimit - 64))
        var configuration = HTTPServer.Configuration(originPolicy: .allowAny)
        if maxConnections > 0 { configuration.tcp.maxConnections = maxConnections }
        let group = try EventLoopGroup(loopCount: loops, name: "echo-loop")
        let server: HTTPServer
        do {
            server = try HTTPServer(group: group, address: address, configuration: configuration,
                                    responder: EchoResponder())
        } catch {
            group.shutdown()
            throw BenchError.system("cannot listen on \(address): \(error)")
        }
        Console.line("echo-server port=\(server.localAddress.port) pid=\(getpid()) loops=\(loops) "
            + "descriptor-limit=\(descriptorLimit) max-connections=\(maxConnections > 0 ? String(maxConnections) : "none")")

        let signal = ProcessSetup.waitForShutdownSignal()
        let metrics = group.metrics
        let cut = server.shutdown(timeout: .seconds(2))
        group.shutdown()
        Console.error("echo-server: stopped by signal \(signal); accepted \(metrics.acceptedConnections), "
            + "refused \(metrics.refusedConnections), messages in \(metrics.webSocketMessagesIn) "
            + "out \(metrics.webSocketMessagesOut), slow peers closed \(metrics.slowPeersClosed), "
            + "cut at shutdown \(cut)")
        return 0
    }
}
