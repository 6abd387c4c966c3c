import Glibc

/// `wait-port`: waits until a server accepts TCP connections on a loopback port, so a
/// script starts its load only once the server is listening.
enum WaitForPortCommand: BenchCommand {
    static let name = "wait-port"
    static let summary = "wait until a loopback port accepts connections"
    static let help = """
        --port P       the port (required)
        --host H       loopback address (default 127.0.0.1)
        --timeout S    give up (exit status 1) after this long (default 30)
        """
    static let valueOptions: Set<String> = ["port", "host", "timeout"]

    static func run(_ options: CommandLineOptions) throws -> Int32 {
        let host = try options.string("host", default: "127.0.0.1")
        let port = try options.int("port", in: 1...65535)
        _ = try LoopbackAddresses.target(host: host, port: port)
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(try options.double("timeout", default: 30, in: 0.1...3600))
        while clock.now < deadline {
            if LoopbackSocket.accepts(host: host, port: port) { return 0 }
            usleep(50_000)
        }
        Console.error("parley-bench wait-port: nothing accepts connections on \(host):\(port)")
        return 1
    }
}
