import Foundation
import Glibc

/// Memory, CPU time and descriptors of one process, from `/proc/<pid>/status`,
/// `/proc/<pid>/stat` and `/proc/<pid>/fd`.
struct ProcessStats: Sendable {
    /// Resident set size (`VmRSS`), in bytes: every page of the process now in RAM.
    let residentBytes: Int
    /// The anonymous part of it (`RssAnon`): the heap and stacks, without mapped files
    /// such as the binary and shared libraries.
    let anonymousBytes: Int
    /// User plus system CPU time, in clock ticks (`utime` + `stime`).
    let cpuTicks: Int
    /// Threads (`Threads`).
    let threads: Int
    /// Open file descriptors (entries in `/proc/<pid>/fd`).
    let openDescriptors: Int

    /// Clock ticks per second, to turn `cpuTicks` into seconds.
    static let ticksPerSecond = Int(sysconf(Int32(_SC_CLK_TCK)))

    /// Reads the current figures of `pid`.
    static func read(pid: Int32) throws(BenchError) -> ProcessStats {
        let status = try ProcFile.read("/proc/\(pid)/status")
        var fields: [Substring: Int] = [:]
        for line in status.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let key = line[..<colon]
            guard key == "VmRSS" || key == "RssAnon" || key == "Threads" else { continue }
            let number = line[line.index(after: colon)...].split(whereSeparator: { $0 == " " || $0 == "\t" }).first.flatMap { Int($0) }
            fields[key] = number
        }
        guard let rssKiB = fields["VmRSS"], let anonKiB = fields["RssAnon"], let threads = fields["Threads"] else {
            throw .system("unexpected format of /proc/\(pid)/status")
        }
        return ProcessStats(residentBytes: rssKiB * 1024, anonymousBytes: anonKiB * 1024,
                            cpuTicks: try cpuTicks(pid: pid), threads: threads,
                            openDescriptors: countDescriptors(pid: pid))
    }

    /// `utime` and `stime` are fields 14 and 15 of `stat`. The command name (field 2) may
    /// contain spaces and parentheses, so counting starts after its last `)`.
    static func cpuTicks(pid: Int32) throws(BenchError) -> Int {
        try cpuTicks(statPath: "/proc/\(pid)/stat")
    }

    /// CPU ticks of each of `pid`'s threads, summed by thread name (`parley-sql-w`,
    /// `parley-loop-0`, …): where a server spends its time, without a profiler.
    static func threadTicks(pid: Int32) -> [String: Int] {
        guard let directory = opendir("/proc/\(pid)/task") else { return [:] }
        defer { closedir(directory) }
        var byName: [String: Int] = [:]
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard let tid = Int(name),
                  let comm = try? ProcFile.read("/proc/\(pid)/task/\(tid)/comm"),
                  let ticks = try? cpuTicks(statPath: "/proc/\(pid)/task/\(tid)/stat") else { continue }
            byName[comm.trimmingCharacters(in: .whitespacesAndNewlines), default: 0] += ticks
        }
        return byName
    }

    /// CPU ticks of `parent` and its children: the live ones' own, and those that ended and
    /// were reaped (`cutime`, `cstime` of `parent`). For a server that forks a process per
    /// connection (PostgreSQL), all it spent.
    static func familyTicks(parent: Int32) -> Int {
        var total = 0
        if let stat = try? ProcFile.read("/proc/\(parent)/stat"), let close = stat.lastIndex(of: ")") {
            let rest = stat[stat.index(after: close)...].split(separator: " ")
            // utime, stime, cutime, cstime: fields 14–17, offsets 11–14 after ")".
            if rest.count > 14 { total += (11...14).compactMap { Int(rest[$0]) }.reduce(0, +) }
        }
        guard let directory = opendir("/proc") else { return total }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
            guard let pid = Int32(name), pid != parent, let stat = try? ProcFile.read("/proc/\(pid)/stat"),
                  let close = stat.lastIndex(of: ")") else { continue }
            let rest = stat[stat.index(after: close)...].split(separator: " ")
            // ppid is field 4 (offset 1 after ")").
            guard rest.count > 12, Int32(rest[1]) == parent, let user = Int(rest[11]), let system = Int(rest[12]) else { continue }
            total += user + system
        }
        return total
    }

    private static func cpuTicks(statPath: String) throws(BenchError) -> Int {
        let pid = statPath
        let stat = try ProcFile.read(statPath)
        guard let close = stat.lastIndex(of: ")") else { throw .system("unexpected format of \(pid)") }
        // After ")": field 3 (state) is at offset 0, so utime (14) is at 11 and stime (15) at 12.
        let rest = stat[stat.index(after: close)...].split(separator: " ")
        guard rest.count > 12, let user = Int(rest[11]), let system = Int(rest[12]) else {
            throw .system("unexpected format of \(pid)")
        }
        return user + system
    }

    private static func countDescriptors(pid: Int32) -> Int {
        guard let directory = opendir("/proc/\(pid)/fd") else { return -1 }
        defer { closedir(directory) }
        var count = 0
        while let entry = readdir(directory) {
            let isDot = withUnsafeBytes(of: entry.pointee.d_name) { $0.first == UInt8(ascii: ".") }
            if !isDot { count += 1 }
        }
        return count
    }
}
