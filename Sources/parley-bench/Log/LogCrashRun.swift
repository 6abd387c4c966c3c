import Glibc
import ParleyLog
import ParleyNet

/// The kill -9 test of a message log: a child process (`log-crash-child`) appends in bursts
/// from several threads and reports each durable append on its standard output; at a random
/// moment the parent kills it with SIGKILL, reopens the log itself (recovery) and checks
/// that every acknowledged record is there, every conversation's seqs run 1, 2, … with no
/// gap, and every record reads back byte for byte (nothing half-written is read). The next
/// cycle's child continues the same log. Bounded: `cycles` cycles, each at most
/// `killAfterMaxMilliseconds` plus a few seconds.
struct LogCrashRun {
    var engine: CrashEngine
    var directory: String
    var cycles: Int
    /// The `parley-bench` executable the children run.
    var executable: String
    var conversations = 40
    var threads = 4
    /// The most records one append carries.
    var burst = 8
    /// The kill comes 0…this many milliseconds after the child starts (sometimes while it
    /// is still recovering).
    var killAfterMaxMilliseconds = 150
    var seed: UInt64 = 1
    /// Segment log: after every other kill, random bytes (1–300) are added to the last
    /// segment, as a write torn by a power cut would leave them (the records they would
    /// have been were never acknowledged); recovery must cut them off.
    var tearTails = true

    /// What the cycles found.
    struct Report: Sendable {
        var cycles = 0
        /// Acknowledgements received (a record each).
        var acknowledged = 0
        /// Records in the log at the last check.
        var records = 0
        /// Records acknowledged over all cycles without repeats (each conversation's highest
        /// acknowledged seq, added up): the least the log must hold.
        var acknowledgedDistinct = 0
        /// Reopens that cut a torn tail (segment log only).
        var tornTails = 0
        var failures: [String] = []
    }

    func run(progress: (String) -> Void = { _ in }) -> Report {
        var report = Report()
        var acked: [UInt64: UInt64] = [:]
        var random = SplitMix(seed: seed)
        for cycle in 1...cycles {
            report.cycles = cycle
            let arguments = [executable, "log-crash-child", "--engine", engine.rawValue, "--dir", directory,
                             "--conversations", "\(conversations)", "--threads", "\(threads)", "--burst", "\(burst)",
                             "--seed", "\(seed &+ UInt64(cycle))"]
            let child: ChildProcess
            do { child = try ChildProcess(arguments: arguments) } catch {
                report.failures.append("cycle \(cycle): cannot start the child: \(error)")
                return report
            }
            // Every fifth kill counts from the start, so some land while the child is still
            // recovering; the others from when it is ready, so they land among its appends.
            let delay = random.next(below: UInt64(killAfterMaxMilliseconds) + 1) * 1_000_000
            let fromStart = cycle % 5 == 0
            var killAt = MonotonicClock.now() + (fromStart ? delay : 30_000_000_000)
            var ended: ChildProcess.Termination?
            while ended == nil && MonotonicClock.now() < killAt {
                ChildProcess.waitForOutput([child], timeoutMilliseconds: 2)
                if note(child.readLines(), acked: &acked, report: &report, cycle: cycle) && !fromStart {
                    killAt = MonotonicClock.now() + delay
                }
                ended = child.checkTermination()
            }
            if ended == nil {
                kill(child.pid, SIGKILL)
                let deadline = MonotonicClock.now() + 10_000_000_000
                while child.checkTermination() == nil && MonotonicClock.now() < deadline { usleep(1_000) }
            }
            // Everything the child wrote before it died is still in the pipe.
            for _ in 0..<1000 {
                note(child.readLines(), acked: &acked, report: &report, cycle: cycle)
                if child.outputEnded { break }
                ChildProcess.waitForOutput([child], timeoutMilliseconds: 10)
            }
            if let termination = child.checkTermination(), termination != .signaled(SIGKILL) {
                report.failures.append("cycle \(cycle): the child \(termination) before it was killed")
            }
            if tearTails && engine == .segment && cycle % 2 == 0 {
                if let failure = tearLastSegment(random: &random) { report.failures.append("cycle \(cycle): \(failure)") }
            }
            verify(acked: acked, report: &report, cycle: cycle)
            report.acknowledgedDistinct = Int(acked.values.reduce(0, +))
            if cycle % 10 == 0 || cycle == cycles {
                progress("  \(engine.rawValue): \(cycle) of \(cycles) cycles, \(report.acknowledged) records acknowledged, "
                    + "\(report.records) in the log, \(report.tornTails) torn tails cut, \(report.failures.count) failures")
            }
            guard report.failures.count < 20 else { break }
        }
        return report
    }

    /// Takes the child's lines: `ack <conversation> <seq>` for each durable record; true if
    /// `ready` (recovery done) was among them.
    @discardableResult
    private func note(_ lines: [String], acked: inout [UInt64: UInt64], report: inout Report, cycle: Int) -> Bool {
        var ready = false
        for line in lines {
            if line == "ready" { ready = true }
            let parts = line.split(separator: " ")
            if parts.first == "ack", parts.count == 3, let conversation = UInt64(parts[1]), let seq = UInt64(parts[2]) {
                report.acknowledged += 1
                acked[conversation] = max(acked[conversation] ?? 0, seq)
            } else if parts.first == "error" {
                report.failures.append("cycle \(cycle): child: \(line)")
            }
        }
        return ready
    }

    /// Appends 1–300 random bytes to the newest segment file; returns why it could not.
    private func tearLastSegment(random: inout SplitMix) -> String? {
        guard let handle = opendir(directory) else { return "cannot list \(directory)" }
        var newest: String?
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasSuffix(".log"), name > (newest ?? "") { newest = name }
        }
        closedir(handle)
        guard let newest else { return "no segment to tear" }
        let fd = open(directory + "/" + newest, O_WRONLY | O_APPEND | O_CLOEXEC)
        guard fd >= 0 else { return "cannot open \(newest): errno \(errno)" }
        defer { close(fd) }
        let garbage = (0...random.next(below: 300)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        guard garbage.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) == garbage.count else {
            return "cannot tear \(newest): errno \(errno)"
        }
        return nil
    }

    /// Reopens the log and checks it against what was acknowledged.
    private func verify(acked: [UInt64: UInt64], report: inout Report, cycle: Int) {
        do {
            let log = try engine.open(directory)
            defer { log.close() }
            if let segments = log as? SegmentLog, segments.recovery.truncatedBytes > 0 { report.tornTails += 1 }
            for (conversation, seq) in acked where try log.lastSeq(of: conversation) < seq {
                report.failures.append("cycle \(cycle): conversation \(conversation): seq \(seq) was acknowledged, "
                    + "the log ends at \(try log.lastSeq(of: conversation))")
            }
            var count = 0
            for conversation in try log.conversations() {
                let records = try log.records(of: conversation, after: 0, limit: .max)
                count += records.count
                for (index, record) in records.enumerated() {
                    let expected = LogPayload.bytes(conversation: conversation, seq: record.seq,
                                                    size: LogPayload.crashSize(conversation: conversation, seq: record.seq))
                    if record.seq != UInt64(index + 1) || record.payload != expected {
                        report.failures.append("cycle \(cycle): conversation \(conversation): record \(index + 1) "
                            + (record.seq != UInt64(index + 1) ? "has seq \(record.seq)" : "has the wrong payload"))
                        break
                    }
                }
            }
            report.records = count
        } catch {
            report.failures.append("cycle \(cycle): reopening failed: \(error)")
        }
    }
}
