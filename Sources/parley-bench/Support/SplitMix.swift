/// A small, fast, seeded generator (SplitMix64): a run's random choices (a search corpus, a
/// crash test's kill points) repeat with its seed, so a failure can be replayed.
struct SplitMix: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound` (a bound of 0 counts as 1).
    mutating func next(below bound: UInt64) -> UInt64 { next() % max(1, bound) }

    /// Uniform in `0..<bound` (a bound below 1 counts as 1).
    mutating func below(_ bound: Int) -> Int { Int(next(below: UInt64(max(1, bound)))) }

    /// Uniform in [0, 1).
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}
