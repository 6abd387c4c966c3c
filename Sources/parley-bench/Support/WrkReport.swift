/// The numbers in `wrk --latency` output: requests per second, the latency distribution,
/// the maximum, and every kind of error wrk counts.
struct WrkReport {
    /// `Requests/sec`.
    let requestsPerSecond: Double
    /// Latency by percentile (50, 75, 90, 99), in nanoseconds.
    let percentiles: [Int: UInt64]
    /// The largest latency seen, in nanoseconds.
    let maxLatency: UInt64
    /// Socket errors (connect, read, write, timeout) plus non-2xx/3xx responses.
    let errors: Int

    /// Parses wrk's output lines.
    init(lines: [String]) throws(BenchError) {
        var rate: Double?
        var percentiles: [Int: UInt64] = [:]
        var maxLatency: UInt64 = 0
        var errors = 0
        var inDistribution = false
        for line in lines {
            let words = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            guard let first = words.first else { continue }
            if first == "Requests/sec:", words.count > 1 {
                rate = Double(words[1])
            } else if first == "Latency", words.count >= 4, !inDistribution {
                // "Latency  Avg  Stdev  Max  +/- Stdev".
                maxLatency = Self.nanoseconds(words[3]) ?? 0
            } else if first == "Latency", words.count >= 2, words[1] == "Distribution" {
                inDistribution = true
            } else if inDistribution, first.hasSuffix("%"), words.count >= 2, let percent = Int(first.dropLast()) {
                percentiles[percent] = Self.nanoseconds(words[1])
            } else if first == "Socket", words.count > 2, words[1] == "errors:" {
                // "Socket errors: connect 0, read 0, write 0, timeout 0".
                errors += words.compactMap { Int($0.filter(\.isNumber)) }.reduce(0, +)
            } else if line.contains("Non-2xx or 3xx responses:"), let count = words.last.flatMap({ Int($0) }) {
                errors += count
            } else if !first.hasSuffix("%") {
                inDistribution = false
            }
        }
        guard let rate else { throw .failed("no Requests/sec in wrk's output") }
        requestsPerSecond = rate
        self.percentiles = percentiles
        self.maxLatency = maxLatency
        self.errors = errors
    }

    /// `620.81us`, `1.02ms`, `1.00s`, `2.00m` in nanoseconds.
    static func nanoseconds(_ text: String) -> UInt64? {
        let units: [(String, Double)] = [("us", 1e3), ("ms", 1e6), ("s", 1e9), ("m", 60e9), ("h", 3600e9)]
        for (suffix, scale) in units where text.hasSuffix(suffix) {
            guard let value = Double(text.dropLast(suffix.count)) else { return nil }
            return UInt64((value * scale).rounded())
        }
        return nil
    }
}
