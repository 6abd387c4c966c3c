/// A token bucket: `rate` tokens a second, at most `burst` saved up. Used per connection to
/// refuse request floods; touched only on the connection's loop.
struct TokenBucket {
    let rate: Double
    let burst: Double
    private var tokens: Double
    private var last: UInt64

    init(rate: Double, burst: Double, now: UInt64) {
        self.rate = rate
        self.burst = burst
        tokens = burst
        last = now
    }

    /// Takes a token if there is one (`now` in monotonic nanoseconds).
    mutating func take(now: UInt64) -> Bool {
        let elapsed = Double(now &- last) / 1_000_000_000
        last = now
        tokens = min(burst, tokens + elapsed * rate)
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }
}
