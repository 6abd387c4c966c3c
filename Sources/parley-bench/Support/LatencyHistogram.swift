/// Latencies in nanoseconds, counted in log-linear buckets: exact below 128 ns, then 64
/// buckets per power of two, so every reported percentile is within 1/64 (1.6 %) of the true
/// value, from nanoseconds to minutes, in a fixed 30 KiB.
///
/// Recording is one add to an array slot, cheap enough for every message; each event loop
/// keeps its own histogram and they are merged once at the end, so no locks on the hot path.
struct LatencyHistogram: Sendable {
    /// Sub-buckets per power of two: 2^6 = 64 gives the 1.6 % resolution.
    private static let subBucketBits = 6
    private static let subBucketCount = 1 << subBucketBits
    /// Enough buckets for any `UInt64`: the highest bit (63) lands in the last group.
    private static let bucketCount = (64 - subBucketBits + 1) * subBucketCount

    private var counts: [UInt64]
    /// The number of values recorded.
    private(set) var count: UInt64 = 0
    /// The largest value recorded (exact, not bucketed).
    private(set) var max: UInt64 = 0
    /// The smallest value recorded (exact); `UInt64.max` when empty.
    private(set) var min: UInt64 = .max
    private var sum: Double = 0

    /// An empty histogram.
    init() {
        counts = Array(repeating: 0, count: Self.bucketCount)
    }

    /// Adds one value.
    mutating func record(_ value: UInt64) {
        counts[Self.index(of: value)] &+= 1
        count &+= 1
        sum += Double(value)
        if value > max { max = value }
        if value < min { min = value }
    }

    /// Adds every value of `other`.
    mutating func merge(_ other: LatencyHistogram) {
        guard other.count > 0 else { return }
        for i in 0..<counts.count where other.counts[i] != 0 { counts[i] &+= other.counts[i] }
        count &+= other.count
        sum += other.sum
        max = Swift.max(max, other.max)
        min = Swift.min(min, other.min)
    }

    /// The arithmetic mean, or 0 when empty.
    var mean: Double { count == 0 ? 0 : sum / Double(count) }

    /// The value at quantile `q` (0…1): the smallest recorded value such that at least
    /// `q` of all values are at or below it, reported as its bucket's upper edge (never
    /// above the exact maximum), so percentiles err on the pessimistic side.
    func value(atQuantile q: Double) -> UInt64 {
        guard count > 0 else { return 0 }
        let rank = Swift.max(1, UInt64((q * Double(count)).rounded(.up)))
        var seen: UInt64 = 0
        for (index, bucket) in counts.enumerated() where bucket != 0 {
            seen &+= bucket
            if seen >= rank {
                return Swift.min(Self.highestValue(ofIndex: index), max)
            }
        }
        return max
    }

    /// The bucket of `value`. Below 128 the index is the value itself; above, the index
    /// keeps the top seven bits of the value (`top` in 64…127) and how far it was shifted.
    static func index(of value: UInt64) -> Int {
        if value < UInt64(2 * subBucketCount) { return Int(value) }
        let highestBit = 63 - value.leadingZeroBitCount
        let shift = highestBit - subBucketBits
        let top = Int(value >> UInt64(shift))
        return shift * subBucketCount + top
    }

    /// The largest value that falls into bucket `index`.
    static func highestValue(ofIndex index: Int) -> UInt64 {
        if index < 2 * subBucketCount { return UInt64(index) }
        let shift = index / subBucketCount - 1
        let top = UInt64(index % subBucketCount + subBucketCount)
        return (top << UInt64(shift)) + (1 << UInt64(shift)) - 1
    }
}
