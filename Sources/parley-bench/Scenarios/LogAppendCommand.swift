import Foundation
import Glibc
import ParleyLog
import ParleyNet
import ParleySync
import Synchronization

/// `log-append`: the durable append path alone, for each storage engine in turn: N writer
/// threads append 1:1 messages to M conversations, each append returning once durable.
/// The message log prototypes (ParleyLog's segment log and LMDB) and today's SQLite store.
enum LogAppendCommand: BenchCommand {
    static let name = "log-append"
    static let summary = "durable appends: segment log vs LMDB vs the SQLite store (appends/s, latency, syncs, CPU)"
    static let help = """
        --engines LIST      comma-separated, in order: segment, lmdb, sqlite (default all three)
        --writers N         appending threads (default 8); each owns every Nth conversation
        --conversations M   conversations (default 1000)
        --payload B         bytes per message (default 64)
        --batch K           messages per append call (default 1); a call returns when all are
                            durable. 1 with many writers: one client per thread; K > 1 with
                            few writers: a server's loops handing the storage whole batches
        --duration S        seconds per engine (default 5)
        --max-appends N     stop an engine after N appends in all (default 5,000,000)
        --dir D             where each engine's files go, in a fresh subdirectory removed
                            afterwards (default: the system's temporary directory)
        --results FILE      append the headline numbers to FILE (see the report command)
        --markdown          print the table as Markdown
        """
    static let valueOptions: Set<String> = ["engines", "writers", "conversations", "payload", "batch", "duration", "max-appends", "dir", "results"]
    static let switchOptions: Set<String> = ["markdown"]

    /// One engine's run.
    struct Measurement {
        var engine: String
        var appends: Int
        var seconds: Double
        /// Append → durable, per call.
        var latency: LatencyHistogram
        var syncs: Int
        var cpuSeconds: Double
        var diskBytes: Int
        var errors: [String]

        var appendsPerSecond: Double { Double(appends) / max(seconds, 1e-9) }
        var cells: [String] {
            [engine, Format.rate(appendsPerSecond), Format.latency(nanoseconds: latency.value(atQuantile: 0.5)),
             Format.latency(nanoseconds: latency.value(atQuantile: 0.99)), Format.latency(nanoseconds: latency.max),
             Format.rate(Double(syncs) / max(seconds, 1e-9)), Format.significant(Double(appends) / Double(max(1, syncs))),
             Format.significant(cpuSeconds * 1e6 / Double(max(1, appends))), Format.bytes(Double(diskBytes) / Double(max(1, appends))),
             Format.count(errors.count)]
        }
        static let headers = ["engine", "appends/s", "p50", "p99", "max", "syncs/s", "appends/sync", "CPU µs/append",
                              "disk/append", "errors"]
    }

    static func run(_ options: CommandLineOptions) throws -> Int32 {
        let engines = try options.string("engines", default: "segment,lmdb,sqlite").split(separator: ",").map(String.init)
        guard !engines.isEmpty, engines.allSatisfy({ ["segment", "lmdb", "sqlite"].contains($0) }) else {
            throw BenchError.usage("--engines takes segment, lmdb and sqlite, comma-separated")
        }
        let writers = try options.int("writers", default: 8, in: 1...256)
        let conversations = try options.int("conversations", default: 1000, in: 1...1_000_000)
        let size = try options.int("payload", default: 64, in: 1...65536)
        let batch = try options.int("batch", default: 1, in: 1...10_000)
        let duration = try options.double("duration", default: 5, in: 0.1...600)
        let maxAppends = try options.int("max-appends", default: 5_000_000, in: 1...1_000_000_000)
        guard writers <= conversations else { throw BenchError.usage("--writers may not exceed --conversations") }
        let parent = try options.string("dir", default: NSTemporaryDirectory())
        Console.line("log-append: \(writers) writers × \(batch) per call, \(Format.count(conversations)) conversations, \(size)-byte payloads, "
            + "\(Format.significant(duration)) s per engine, load average \(loadAverage())")
        var measurements: [Measurement] = []
        for engine in engines {
            let directory = parent + "/parley-log-append-\(engine)-\(getpid())-\(UUID().uuidString.prefix(8))"
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let target: any AppendTarget
            do {
                switch engine {
                case "segment": target = MessageLogTarget(name: "segment log", log: try SegmentLog(directory: directory))
                case "lmdb": target = MessageLogTarget(name: "lmdb", log: try LMDBLog(directory: directory))
                default:
                    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
                    target = try SQLiteStoreTarget(path: directory + "/parley.sqlite", conversations: conversations)
                }
            } catch {
                throw BenchError.failed("\(engine): cannot open: \(error)")
            }
            let measurement = measure(target, writers: writers, batch: batch, conversations: conversations, size: size,
                                      duration: duration, maxAppends: maxAppends, directory: directory)
            target.close()
            Console.line("  " + zip(Measurement.headers, measurement.cells).map { "\($0) \($1)" }.joined(separator: ", "))
            for error in measurement.errors.prefix(3) { Console.line("    error: \(error)") }
            measurements.append(measurement)
        }
        var table = ResultTable(headers: Measurement.headers)
        for measurement in measurements { table.add(measurement.cells) }
        Console.line("")
        table.print(markdown: options.flag("markdown"))
        if let path = options.optionalString("results") {
            let log = ResultLog(path: path)
            for measurement in measurements {
                let scenario = "log-append → \(measurement.engine)"
                try log.append(scenario: scenario, metric: "appends/s (\(writers) writers × \(batch))", value: Format.rate(measurement.appendsPerSecond))
                // One metric per figure, so that `report` folds several runs into a median.
                try log.append(scenario: scenario, metric: "append → durable p50",
                               value: Format.latency(nanoseconds: measurement.latency.value(atQuantile: 0.5)))
                try log.append(scenario: scenario, metric: "append → durable p99",
                               value: Format.latency(nanoseconds: measurement.latency.value(atQuantile: 0.99)))
                try log.append(scenario: scenario, metric: "syncs/s", value: measurement.cells[5])
                try log.append(scenario: scenario, metric: "CPU per append", value: measurement.cells[7] + " µs")
            }
        }
        return measurements.contains { !$0.errors.isEmpty } ? 1 : 0
    }

    /// Runs `writers` threads against `target` until `duration` or `maxAppends`.
    static func measure(_ target: any AppendTarget, writers: Int, batch: Int, conversations: Int, size: Int, duration: Double,
                        maxAppends: Int, directory: String) -> Measurement {
        let payload = LogPayload.bytes(conversation: 0, seq: 0, size: size)
        let total = Atomic<Int>(0)
        let results = PThreadMutex<(latency: LatencyHistogram, errors: [String], appended: Int)>((LatencyHistogram(), [], 0))
        let done = DispatchGroup()
        let syncsBefore = target.syncs
        let cpuBefore = processCPUSeconds()
        let started = MonotonicClock.now()
        let deadline = started + UInt64(duration * 1e9)
        for writer in 0..<writers {
            done.enter()
            let thread = Thread {
                var latency = LatencyHistogram()
                var errors: [String] = []
                let mine = Array(stride(from: writer, to: conversations, by: writers))
                var nextSeq = [UInt64](repeating: 1, count: mine.count)
                var turn = 0
                var appended = 0
                while MonotonicClock.now() < deadline, total.add(batch, ordering: .relaxed).newValue <= maxAppends, errors.count < 10 {
                    var items: [AppendItem] = []
                    var slots: [Int] = []
                    for _ in 0..<batch {
                        let slot = turn % mine.count
                        turn += 1
                        // A conversation twice in one call continues its own seq.
                        let seq = nextSeq[slot] + UInt64(slots.filter { $0 == slot }.count)
                        slots.append(slot)
                        items.append(AppendItem(conversation: mine[slot], seq: seq, payload: payload))
                    }
                    let before = MonotonicClock.now()
                    do {
                        try target.append(items)
                        latency.record(MonotonicClock.now() - before)
                        for slot in slots { nextSeq[slot] += 1 }
                        appended += batch
                    } catch {
                        errors.append("\(error)")
                    }
                }
                results.withLock { shared in
                    shared.latency.merge(latency)
                    shared.errors.append(contentsOf: errors)
                    shared.appended += appended
                }
                done.leave()
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
        done.wait()
        let seconds = Double(MonotonicClock.now() - started) / 1e9
        let (latency, errors, appended) = results.withLock { ($0.latency, $0.errors, $0.appended) }
        return Measurement(engine: target.name, appends: appended, seconds: seconds, latency: latency,
                           syncs: target.syncs - syncsBefore, cpuSeconds: processCPUSeconds() - cpuBefore,
                           diskBytes: diskBytes(directory), errors: errors)
    }

    /// User and system CPU of this process (every thread), to the microsecond.
    static func processCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    /// The bytes of every file under `directory`.
    static func diskBytes(_ directory: String) -> Int {
        guard let names = try? FileManager.default.subpathsOfDirectory(atPath: directory) else { return 0 }
        return names.reduce(0) { sum, name in
            let size = (try? FileManager.default.attributesOfItem(atPath: directory + "/" + name)[.size] as? NSNumber)?.intValue
            return sum + (size ?? 0)
        }
    }

    static func loadAverage() -> String {
        ((try? ProcFile.read("/proc/loadavg")) ?? "").split(separator: " ").prefix(3).joined(separator: " ")
    }
}
