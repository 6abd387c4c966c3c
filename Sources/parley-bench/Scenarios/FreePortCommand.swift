/// `free-port`: prints a loopback port that is free now, for scripts that must pass a port
/// to a server (the Makefile's `bench` target).
enum FreePortCommand: BenchCommand {
    static let name = "free-port"
    static let summary = "print a free loopback port"
    static let help = "--host H    loopback address (default 127.0.0.1)"
    static let valueOptions: Set<String> = ["host"]

    static func run(_ options: CommandLineOptions) throws -> Int32 {
        let host = try options.string("host", default: "127.0.0.1")
        _ = try LoopbackAddresses.target(host: host, port: 0)
        Console.line(String(try LoopbackSocket.freePort(host: host)))
        return 0
    }
}
