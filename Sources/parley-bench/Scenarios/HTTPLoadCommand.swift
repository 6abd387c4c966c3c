/// `http`: runs `wrk` against an HTTP endpoint (by default `parley serve`'s `/healthz`) and
/// reports its requests per second and latency percentiles. wrk is a closed-loop tool:
/// each connection sends its next request when the previous answer arrives, so this
/// measures capacity, not latency at a fixed rate.
enum HTTPLoadCommand: BenchCommand {
    static let name = "http"
    static let summary = "HTTP requests/s and latency with wrk (GET /healthz by default)"
    static let help = """
        --port P          the server's port (required)
        --host H          its loopback address (default 127.0.0.1)
        --path PATH       the request path (default /healthz)
        --threads N       wrk threads (default 2)
        --connections N   wrk connections (default 100)
        --duration S      seconds (default 15)
        --results FILE    append the headline numbers to FILE (see the report command)
        --markdown        print the table as Markdown
        """
    static let valueOptions: Set<String> = ["port", "host", "path", "threads", "connections", "duration", "results"]
    static let switchOptions: Set<String> = ["markdown"]

    static func run(_ options: CommandLineOptions) throws -> Int32 {
        let host = try options.string("host", default: "127.0.0.1")
        let port = try options.int("port", in: 1...65535)
        _ = try LoopbackAddresses.target(host: host, port: port)
        let threads = try options.int("threads", default: 2, in: 1...256)
        let connections = try options.int("connections", default: 100, in: 1...19_000)
        let seconds = try options.int("duration", default: 15, in: 1...3600)
        let path = try options.string("path", default: "/healthz")
        let arguments = ["wrk", "-t\(threads)", "-c\(connections)", "-d\(seconds)s", "--latency", "http://\(host):\(port)\(path)"]
        Console.line("http: " + arguments.joined(separator: " "))

        let child = try ChildProcess(arguments: arguments)
        child.closeInput()
        var output: [String] = []
        while !child.outputEnded {
            ChildProcess.waitForOutput([child], timeoutMilliseconds: 500)
            output.append(contentsOf: child.readLines())
        }
        var ended = child.checkTermination()
        while ended == nil {
            ProcessSetup.sleep(milliseconds: 10)
            ended = child.checkTermination()
        }
        for line in output { Console.line("  " + line) }
        guard ended == .exited(0) else { throw BenchError.failed("wrk \(ended.map { "\($0)" } ?? "did not end")") }
        let report = try WrkReport(lines: output)

        var table = ResultTable(headers: ["requests/s", "p50", "p90", "p99", "max", "errors"])
        table.add([Format.rate(report.requestsPerSecond),
                   report.percentiles[50].map { Format.latency(nanoseconds: $0) } ?? "?",
                   report.percentiles[90].map { Format.latency(nanoseconds: $0) } ?? "?",
                   report.percentiles[99].map { Format.latency(nanoseconds: $0) } ?? "?",
                   Format.latency(nanoseconds: report.maxLatency), Format.count(report.errors)])
        Console.line("")
        Console.line("http: GET \(path), wrk \(threads) threads, \(connections) connections, \(seconds) s")
        table.print(markdown: options.flag("markdown"))

        if let path = options.optionalString("results") {
            let log = ResultLog(path: path)
            let scenario = "HTTP GET \(try options.string("path", default: "/healthz")) (wrk -t\(threads) -c\(connections) \(seconds) s)"
            try log.append(scenario: scenario, metric: "requests/s", value: Format.rate(report.requestsPerSecond))
            try log.append(scenario: scenario, metric: "p50 / p99 / max",
                           value: [50, 99].map { report.percentiles[$0].map { Format.latency(nanoseconds: $0) } ?? "?" }
                            .joined(separator: " / ") + " / " + Format.latency(nanoseconds: report.maxLatency))
            try log.append(scenario: scenario, metric: "errors", value: Format.count(report.errors))
        }
        return report.errors == 0 ? 0 : 1
    }
}
