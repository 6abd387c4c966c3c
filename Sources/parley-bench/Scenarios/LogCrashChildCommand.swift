import Foundation
import Glibc
import ParleyLog

/// `log-crash-child`: the process `log-crash` kills. Opens (recovers) the log, then appends
/// bursts from several threads, each thread owning every Tth conversation and continuing
/// its seqs from the log, and writes `ack <conversation> <seq>` for every record once its
/// append returned (durable). Each burst's lines go out in one `write` (under PIPE_BUF, so
/// atomic), so a kill never leaves half an acknowledgement. Bounded by `--max-appends`.
enum LogCrashChildCommand: BenchCommand {
    static let name = "log-crash-child"
    static let summary = "(worker) appends to a message log until killed; used by log-crash"
    static let help = "the options of log-crash, and --max-appends N (default 1,000,000)"
    static let valueOptions: Set<String> = ["engine", "dir", "conversations", "threads", "burst", "seed", "max-appends"]
    static let hidden = true

    static func run(_ options: CommandLineOptions) throws -> Int32 {
        let engine = try CrashEngine.parse(try options.string("engine"))
        let conversations = try options.int("conversations", default: 40, in: 1...100_000)
        let threads = min(conversations, try options.int("threads", default: 4, in: 1...64))
        let burst = try options.int("burst", default: 8, in: 1...100)
        let seed = UInt64(try options.int("seed", default: 1, in: 0...Int.max))
        let maxAppends = try options.int("max-appends", default: 1_000_000, in: 1...100_000_000)
        let log = try engine.open(try options.string("dir"))
        emit("ready\n")
        let done = DispatchGroup()
        for thread in 0..<threads {
            done.enter()
            let worker = Thread {
                defer { done.leave() }
                var random = SplitMix(seed: seed &* 1_000_003 &+ UInt64(thread))
                let mine = stride(from: thread + 1, through: conversations, by: threads).map { UInt64($0) }
                var next: [UInt64: UInt64] = [:]
                do {
                    for conversation in mine { next[conversation] = try log.lastSeq(of: conversation) + 1 }
                    for _ in 0..<(maxAppends / threads) {
                        var records: [LogRecord] = []
                        for _ in 0...random.next(below: UInt64(burst)) {
                            let conversation = mine[Int(random.next(below: UInt64(mine.count)))]
                            let seq = next[conversation, default: 1]
                            next[conversation] = seq + 1
                            records.append(LogRecord(conversation: conversation, seq: seq, payload: LogPayload.bytes(
                                conversation: conversation, seq: seq, size: LogPayload.crashSize(conversation: conversation, seq: seq))))
                        }
                        try log.append(records)
                        emit(records.map { "ack \($0.conversation) \($0.seq)\n" }.joined())
                    }
                } catch {
                    emit("error \(error)\n")
                    exit(1)
                }
            }
            worker.start()
        }
        done.wait()
        log.close()
        return 0
    }

    /// One `write` to standard output; a closed pipe (the parent is gone) ends the child.
    private static func emit(_ text: String) {
        let bytes = Array(text.utf8)
        var done = 0
        while done < bytes.count {
            let count = bytes.withUnsafeBytes { write(1, $0.baseAddress! + done, $0.count - done) }
            if count < 0 {
                if errno == EINTR { continue }
                exit(2)
            }
            done += count
        }
    }
}
