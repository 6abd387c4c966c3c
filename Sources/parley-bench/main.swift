import Glibc

// Load generator and measurements for Parley. Every subcommand is one scenario (or a worker
// or helper behind one); see docs/benchmarks.md for how the numbers there were made.

let commands: [any BenchCommand.Type] = [
    EchoServerCommand.self,
    WebSocketEchoCommand.self,
    ConnectionsCommand.self,
    ConnectionsWorkerCommand.self,
    HTTPLoadCommand.self,
    ReportCommand.self,
    FreePortCommand.self,
    WaitForPortCommand.self,
    DirectCommand.self,
    GroupCommand.self,
    GroupSignalsCommand.self,
    ReconnectCommand.self,
    NativeIdleCommand.self,
    RelayServerCommand.self,
    LogAppendCommand.self,
    LogCrashCommand.self,
    LogCrashChildCommand.self,
    SearchBenchCommand.self,
]

@MainActor
func usage() -> String {
    let lines = commands.filter { !$0.hidden }.map { command in
        command.name + String(repeating: " ", count: max(1, 14 - command.name.count)) + command.summary
    }
    return """
        parley-bench — load and measurements for Parley (loopback only)

        usage: parley-bench <command> [options]   (parley-bench <command> --help for its options)

        commands:
        \(lines.map { "  " + $0 }.joined(separator: "\n"))
        """
}

ProcessSetup.ignoreBrokenPipe()
var arguments = Array(CommandLine.arguments.dropFirst())
guard let name = arguments.first, name != "--help", name != "-h", name != "help" else {
    Console.line(usage())
    exit(arguments.isEmpty ? 2 : 0)
}
arguments.removeFirst()
guard let command = commands.first(where: { $0.name == name }) else {
    Console.error("parley-bench: unknown command '\(name)'\n\n\(usage())")
    exit(2)
}
if arguments.contains("--help") || arguments.contains("-h") {
    Console.line("usage: parley-bench \(command.name) [options]\n\n\(command.summary)\n\n\(command.help)")
    exit(0)
}
do {
    let options = try CommandLineOptions(arguments: arguments, valueNames: command.valueOptions,
                                         switchNames: command.switchOptions)
    exit(try command.run(options))
} catch let error as BenchError {
    Console.error("parley-bench \(command.name): \(error)")
    exit(error.isUsage ? 2 : 1)
} catch {
    Console.error("parley-bench \(command.name): \(error)")
    exit(1)
}
