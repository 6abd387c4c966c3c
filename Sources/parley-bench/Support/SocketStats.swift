/// The kernel's TCP socket counters from `/proc/net/sockstat`. They cover the whole network
/// namespace, so on loopback both ends of every connection (the load generator's and the
/// server's) are in them.
struct SocketStats: Sendable {
    /// TCP sockets in use (not closed, not in TIME_WAIT).
    let tcpInUse: Int
    /// Orphaned TCP sockets (closed by their process, still finishing).
    let tcpOrphaned: Int
    /// Sockets in TIME_WAIT.
    let tcpTimeWait: Int
    /// TCP sockets allocated.
    let tcpAllocated: Int
    /// Pages charged to TCP socket buffers (`mem`): data waiting in send and receive queues.
    let tcpMemoryPages: Int

    /// `tcpMemoryPages` in bytes.
    var tcpMemoryBytes: Int { tcpMemoryPages * Self.pageSize }

    private static let pageSize = 4096

    /// Reads the current counters.
    static func read() throws(BenchError) -> SocketStats {
        let text = try ProcFile.read("/proc/net/sockstat")
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("TCP:") }) else {
            throw .system("no TCP line in /proc/net/sockstat")
        }
        // "TCP: inuse 5 orphan 0 tw 2 alloc 7 mem 1": name and value alternate.
        let words = line.split(separator: " ").dropFirst()
        var values: [Substring: Int] = [:]
        var iterator = words.makeIterator()
        while let name = iterator.next(), let value = iterator.next() { values[name] = Int(value) }
        return SocketStats(tcpInUse: values["inuse"] ?? 0, tcpOrphaned: values["orphan"] ?? 0,
                           tcpTimeWait: values["tw"] ?? 0, tcpAllocated: values["alloc"] ?? 0,
                           tcpMemoryPages: values["mem"] ?? 0)
    }
}
