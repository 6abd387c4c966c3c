/// A token bucket: `rate.perSecond` tokens a second, at most `rate.burst` saved up. Used per
/// connection to refuse request floods; touched only on the connection's loop. The rate is the
/// same for every connection, so the bucket keeps only its own state (16 bytes, not 32, in each
/// idle connection) and is given the rate at each take.
struct TokenBucket {
    /// Tokens a second and the most saved up.
    struct Rate {
        let perSecond: Double
        let burst: Double
    }

    private var tokens: Double
    private var last: UInt64

    /// A full bucket (`rate.burst` tokens) at `now`.
    init(full rate: Rate, now: UInt64) {
        tokens = rate.burst
        last = now
    }

    /// Takes a token if there is one (`now` in monotonic nanoseconds).
    mutating func take(now: UInt64, at rate: Rate) -> Bool {
        let elapsed = Double(now &- last) / 1_000_000_000
        last = now
        tokens = min(rate.burst, tokens + elapsed * rate.perSecond)
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }
}
