import Foundation
import Glibc

/// `log-crash`: the kill -9 test of the message log prototypes (`LogCrashRun`), run from
/// the command line (`make soak-log` runs hundreds of cycles; the test suite runs a few
/// dozen).
enum LogCrashCommand: BenchCommand {
    static let name = "log-crash"
    static let summary = "kill -9 a process appending to a message log, reopen, check every acknowledged record"
    static let help = """
        --engine E          segment or lmdb (default segment)
        --cycles N          kill-and-reopen cycles (default 100)
        --conversations M   conversations the child appends to (default 40)
        --threads T         appending threads in the child (default 4)
        --burst B           most records per append (default 8)
        --kill-after-ms MS  each kill comes 0…MS ms after the child starts (default 150)
        --seed S            seed of the random choices (default 1)
        --dir D             the log's directory (default: a fresh temporary one, removed after)
        --no-tear           segment: do not add a torn tail (random bytes) after every other kill
        """
    static let valueOptions: Set<String> = ["engine", "cycles", "conversations", "threads", "burst", "kill-after-ms", "seed", "dir"]
    static let switchOptions: Set<String> = ["no-tear"]

    static func run(_ options: CommandLineOptions) throws -> Int32 {
        let engine = try CrashEngine.parse(try options.string("engine", default: "segment"))
        let given = options.optionalString("dir")
        let directory = given ?? NSTemporaryDirectory() + "parley-log-crash-\(getpid())-\(engine.rawValue)"
        defer { if given == nil { try? FileManager.default.removeItem(atPath: directory) } }
        let run = LogCrashRun(engine: engine, directory: directory, cycles: try options.int("cycles", default: 100, in: 1...100_000),
                              executable: try ownExecutable(),
                              conversations: try options.int("conversations", default: 40, in: 1...100_000),
                              threads: try options.int("threads", default: 4, in: 1...64),
                              burst: try options.int("burst", default: 8, in: 1...100),
                              killAfterMaxMilliseconds: try options.int("kill-after-ms", default: 150, in: 1...60_000),
                              seed: UInt64(try options.int("seed", default: 1, in: 0...Int.max)),
                              tearTails: !options.flag("no-tear"))
        Console.line("log-crash: \(engine.rawValue), \(run.cycles) cycles in \(directory)")
        let report = run.run { Console.line($0) }
        for failure in report.failures.prefix(20) { Console.line("  FAIL \(failure)") }
        Console.line("log-crash \(engine.rawValue): \(report.cycles) kill -9 cycles, \(report.acknowledged) records acknowledged, "
            + "\(report.records) in the log, \(report.tornTails) torn tails cut, "
            + (report.failures.isEmpty ? "every acknowledged record found, seqs gapless, payloads intact" : "\(report.failures.count) failures"))
        return report.failures.isEmpty && report.acknowledged > 0 ? 0 : 1
    }

    /// This executable, for the children.
    static func ownExecutable() throws(BenchError) -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { throw .system("cannot read /proc/self/exe: errno \(errno)") }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
