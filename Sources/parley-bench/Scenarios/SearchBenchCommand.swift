import Foundation
import Glibc
import ParleyCore
import ParleySQLite
import Dispatch

/// `search-bench`: full-text search over a large store (SQLite, or PostgreSQL with
/// `--postgres`). Fills a fresh store with N
/// messages (English, Chinese and mixed, over many conversations) through the store API in
/// big writes, then times K searches of each kind, in one conversation and across all;
/// reports the search index's size per message against the messages table's, and the
/// store's insert CPU per message with the index kept against without (two more fresh
/// stores of M messages, the second with the index's trigger dropped in its own copy).
enum SearchBenchCommand: BenchCommand {
    static let name = "search-bench"
    static let summary = "message search over N stored messages: p50/p99 per query kind, index size, insert CPU with/without the index"
    static let help = """
        --messages N        messages in the searched store (default 1,000,000)
        --conversations C   group conversations they are spread over (default 2,000); one
                            reader is in all of them, each has one sender besides
        --searches K        searches of each query kind in each scope (default 200)
        --search-seconds T  wall seconds one query kind in one scope may take: its
                            searches stop there, after at least one (default 60)
        --compare M         messages in each of the two stores that compare insert CPU
                            with and without the index (default 200,000; 0 skips)
        --batch B           messages per store write (default 5,000)
        --seed S            the corpus's seed (default 1)
        --dir D             where the stores go, in a fresh subdirectory removed afterwards
                            (default: the system's temporary directory)
        --postgres URI      measure PostgreSQL instead: URI names a fresh database on a
                            loopback server (scripts/search-bench-postgres.py starts one)
        --postgres-compare URI,URI   two more fresh databases for the insert CPU comparison
                            (with the index, and with it dropped)
        --postgres-pid PID  the postmaster: its processes' CPU counts as the store's
        --bulk              PostgreSQL: fill the searched store with COPY, then build the
                            search index with the definition its migration made, as a
                            restore does (the store API costs ≈ 1 ms of CPU a message
                            there); the comparison stores still use the store API
        --results FILE      append the headline numbers to FILE (see the report command)
        --markdown          print the tables as Markdown
        """
    static let valueOptions: Set<String> = ["messages", "conversations", "searches", "search-seconds", "compare", "batch", "seed", "dir", "results",
                                            "postgres", "postgres-compare", "postgres-pid"]
    static let switchOptions: Set<String> = ["markdown", "bulk"]

    /// The figures of one run, also for tests.
    struct Report {
        var messages: Int
        var fillSeconds: Double
        var fillCPUMicrosPerMessage: Double
        var messagesBytes: Int64
        var indexBytes: Int64
        var timings: [SearchBench.Timing]
        /// CPU µs per message appended with the index kept and without; nil when skipped.
        var insertWithIndex: Double?
        var insertWithoutIndex: Double?
        /// Wall seconds of the index build after a bulk fill (included in `fillSeconds`).
        var indexBuildSeconds: Double?
    }

    static func run(_ options: CommandLineOptions) throws -> Int32 {
        let messages = try options.int("messages", default: 1_000_000, in: 1...50_000_000)
        let conversations = try options.int("conversations", default: 2000, in: 1...1_000_000)
        let searches = try options.int("searches", default: 200, in: 1...100_000)
        let searchSeconds = try options.double("search-seconds", default: 60, in: 0.001...86_400)
        let compare = try options.int("compare", default: 200_000, in: 0...50_000_000)
        let batch = try options.int("batch", default: 5000, in: 1...1_000_000)
        let seed = try options.int("seed", default: 1, in: 0...Int.max)
        let parent = try options.string("dir", default: NSTemporaryDirectory())
        let directory = parent + "/parley-search-bench-\(getpid())-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let main: SearchBenchStore
        var comparisons: (indexed: SearchBenchStore, plain: SearchBenchStore)?
        if let uri = options.optionalString("postgres") {
            guard uri.contains("127.0.0.1") || uri.contains("localhost") || uri.contains("host=/") else {
                throw BenchError.usage("--postgres must name a server on loopback")
            }
            let pid = options.optionalString("postgres-pid").flatMap { Int32($0) }
            main = .postgres(uri: uri, serverPID: pid)
            if let pair = options.optionalString("postgres-compare") {
                let uris = pair.split(separator: ",").map(String.init)
                guard uris.count == 2 else { throw BenchError.usage("--postgres-compare takes two URIs, comma-separated") }
                comparisons = (.postgres(uri: uris[0], serverPID: pid), .postgres(uri: uris[1], serverPID: pid))
            }
        } else {
            guard !options.flag("bulk") else { throw BenchError.usage("--bulk is for PostgreSQL (--postgres)") }
            main = .sqlite(path: directory + "/search.sqlite")
            comparisons = (.sqlite(path: directory + "/compare-indexed.sqlite"), .sqlite(path: directory + "/compare-plain.sqlite"))
        }
        Console.line("search-bench \(main.name): \(Format.count(messages)) messages over \(Format.count(conversations)) conversations, "
            + "\(searches) searches per kind and scope, load average \(LogAppendCommand.loadAverage())")
        let report = try measure(main: main, comparisons: compare > 0 ? comparisons : nil, messages: messages,
                                 conversations: conversations, searches: searches, compare: compare, batch: batch,
                                 seed: UInt64(seed), bulk: options.flag("bulk"), searchSeconds: searchSeconds) { line in Console.line(line) }
        print(report, markdown: options.flag("markdown"))
        Console.line("load average after: \(LogAppendCommand.loadAverage())")
        if let path = options.optionalString("results") {
            let log = ResultLog(path: path)
            for timing in report.timings {
                let scenario = "search-bench \(main.name) → \(timing.kind.rawValue), \(timing.scope.rawValue)"
                try log.append(scenario: scenario, metric: "p50", value: Format.latency(nanoseconds: SearchBench.percentile(timing.latencies, 0.5)))
                try log.append(scenario: scenario, metric: "p99", value: Format.latency(nanoseconds: SearchBench.percentile(timing.latencies, 0.99)))
            }
        }
        return 0
    }

    /// Fills and searches `main`, then fills the two comparison stores (the plain one with
    /// its index's upkeep dropped first) for the insert CPU with and without the index.
    static func measure(main: SearchBenchStore, comparisons: (indexed: SearchBenchStore, plain: SearchBenchStore)?, messages: Int,
                        conversations: Int, searches: Int, compare: Int, batch: Int, seed: UInt64, bulk: Bool = false,
                        searchSeconds: Double = 60, say: (String) -> Void) throws -> Report {
        var bench = SearchBench(corpus: SearchCorpus())
        bench.searchSeconds = searchSeconds
        var random = SearchCorpus.Random(seed: seed)

        let (store, close) = try main.open()
        let population = try bench.populate(store, conversations: conversations)
        let started = DispatchTime.now().uptimeNanoseconds
        var reported = 0
        let progress: (Int) -> Void = { done in
            if done - reported >= 100_000 || done == messages {
                reported = done
                say("  filled \(Format.count(done))")
            }
        }
        let cpu: Double
        var indexBuild: Double?
        if bulk, case .postgres(let uri, _) = main {
            let before = SearchBench.processCPUSeconds() + main.serverCPUSeconds()
            let timing = try PostgresBulkLoad(uri: uri).fill(bench: bench, population: population, count: messages, batch: batch,
                                                             random: &random, progress: progress)
            cpu = SearchBench.processCPUSeconds() + main.serverCPUSeconds() - before
            indexBuild = timing.indexBuild
            say("  COPY \(Format.significant(timing.load)) s, index build \(Format.significant(timing.indexBuild)) s")
        } else {
            cpu = try bench.fill(store, population, count: messages, batch: batch, random: &random,
                                 serverCPU: main.serverCPUSeconds, progress: progress)
        }
        let fillSeconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        let timings = try bench.search(store, population, count: searches, random: &random)
        close()
        let sizes = try main.sizes()
        var report = Report(messages: messages, fillSeconds: fillSeconds, fillCPUMicrosPerMessage: cpu * 1e6 / Double(messages),
                            messagesBytes: sizes.messages, indexBytes: sizes.index, timings: timings,
                            indexBuildSeconds: indexBuild)

        if let comparisons, compare > 0 {
            for (indexed, target) in [(true, comparisons.indexed), (false, comparisons.plain)] {
                // The schema first, then (for the plain one) the index's upkeep dropped in this copy.
                let (schemaOnly, closeSchema) = try target.open()
                _ = schemaOnly
                closeSchema()
                if !indexed { try target.dropIndexUpkeep() }
                let (compareStore, closeCompare) = try target.open()
                let comparePopulation = try bench.populate(compareStore, conversations: conversations)
                var compareRandom = SearchCorpus.Random(seed: seed &+ 1)
                let used = try bench.fill(compareStore, comparePopulation, count: compare, batch: batch, random: &compareRandom,
                                          serverCPU: target.serverCPUSeconds)
                closeCompare()
                let micros = used * 1e6 / Double(compare)
                if indexed { report.insertWithIndex = micros } else { report.insertWithoutIndex = micros }
                say("  insert CPU \(indexed ? "with" : "without") the index: \(Format.significant(micros)) µs/message")
            }
        }
        return report
    }

    static func print(_ report: Report, markdown: Bool) {
        var searches = ResultTable(headers: ["query", "scope", "searches", "p50", "p99", "max", "hits/search"])
        for timing in report.timings {
            searches.add([timing.kind.rawValue, timing.scope.rawValue, Format.count(timing.latencies.count),
                          Format.latency(nanoseconds: SearchBench.percentile(timing.latencies, 0.5)),
                          Format.latency(nanoseconds: SearchBench.percentile(timing.latencies, 0.99)),
                          Format.latency(nanoseconds: timing.latencies.last ?? 0),
                          Format.significant(Double(timing.hits) / Double(max(1, timing.latencies.count)))])
        }
        Console.line("")
        searches.print(markdown: markdown)
        let perMessage = Double(max(1, report.messages))
        var store = ResultTable(headers: ["messages", "fill", "fill CPU/message", "messages table/message", "search index/message",
                                          "insert CPU with index", "without", "index build"])
        store.add([Format.count(report.messages), Format.significant(report.fillSeconds) + " s",
                   Format.significant(report.fillCPUMicrosPerMessage) + " µs",
                   Format.bytes(Double(report.messagesBytes) / perMessage), Format.bytes(Double(report.indexBytes) / perMessage),
                   report.insertWithIndex.map { Format.significant($0) + " µs" } ?? "—",
                   report.insertWithoutIndex.map { Format.significant($0) + " µs" } ?? "—",
                   report.indexBuildSeconds.map { Format.significant($0) + " s" } ?? "—"])
        Console.line("")
        store.print(markdown: markdown)
    }
}
