import ParleyNet

/// Checks and expands the addresses the bench uses. Every server and every load stays on
/// loopback (127.0.0.0/8): the bench refuses anything else, so a typo cannot aim a load at
/// another machine.
enum LoopbackAddresses {
    /// The address `host:port`, which must be in 127.0.0.0/8.
    static func target(host: String, port: Int) throws(BenchError) -> SocketAddress {
        guard let octets = octets(host), octets[0] == 127 else {
            throw .usage("only loopback addresses (127.0.0.0/8) are allowed, not '\(host)'")
        }
        do {
            return try SocketAddress(host: host, port: port)
        } catch {
            throw .usage("\(error)")
        }
    }

    /// Expands `127.0.0.2-127.0.0.9` (or a single address) into its addresses, all in
    /// 127.0.0.0/8, in order. At most 65,536 of them.
    static func range(_ text: String) throws(BenchError) -> [String] {
        let ends = text.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
        guard (1...2).contains(ends.count), let first = octets(ends[0]), let last = octets(ends[ends.count - 1]),
              first[0] == 127, last[0] == 127 else {
            throw .usage("--source-ips wants loopback addresses like 127.0.0.2-127.0.0.9, not '\(text)'")
        }
        let low = value(first), high = value(last)
        guard low <= high, high - low < 65_536 else { throw .usage("--source-ips range '\(text)' is empty or too large") }
        return (low...high).map { address in
            "\(address >> 24 & 255).\(address >> 16 & 255).\(address >> 8 & 255).\(address & 255)"
        }
    }

    private static func octets(_ text: String) -> [UInt32]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        let values = parts.compactMap { UInt32($0) }
        guard values.count == 4, values.allSatisfy({ $0 <= 255 }) else { return nil }
        return values
    }

    private static func value(_ octets: [UInt32]) -> UInt32 {
        octets[0] << 24 | octets[1] << 16 | octets[2] << 8 | octets[3]
    }
}
