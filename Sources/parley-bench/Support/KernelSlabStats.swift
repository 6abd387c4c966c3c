/// Kernel memory in the slab caches that grow with every TCP connection (the socket, its
/// inode, the open file, the epoll entry), from `/proc/slabinfo`. Readable only by root; the
/// bench reports it when it can, as the kernel-side cost of a connection beside
/// `/proc/net/sockstat`, which counts only buffered data.
struct KernelSlabStats: Sendable {
    /// Bytes in active objects of each watched cache.
    let bytesByCache: [String: Int]

    /// The caches a TCP connection adds objects to.
    static let watchedCaches = ["TCP", "sock_inode_cache", "filp", "dentry", "eventpoll_epi", "eventpoll_pwq",
                                "skbuff_head_cache", "tcp_bind_bucket", "tcp_bind2_bucket"]

    /// The sum over all watched caches.
    var totalBytes: Int { bytesByCache.values.reduce(0, +) }

    /// Reads the caches, or nil when `/proc/slabinfo` is not readable.
    static func read() -> KernelSlabStats? {
        guard let text = try? ProcFile.read("/proc/slabinfo") else { return nil }
        var bytes: [String: Int] = [:]
        // "name <active_objs> <num_objs> <objsize> ...".
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count > 3, watchedCaches.contains(String(fields[0])),
                  let active = Int(fields[1]), let size = Int(fields[3]) else { continue }
            bytes[String(fields[0]), default: 0] += active * size
        }
        return bytes.isEmpty ? nil : KernelSlabStats(bytesByCache: bytes)
    }
}
