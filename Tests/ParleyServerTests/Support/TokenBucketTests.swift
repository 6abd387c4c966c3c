import Testing
@testable import ParleyServer

/// The per-connection request limiter (`--ws-rate`, `--ws-burst`) at its exact boundaries,
/// on a clock the test sets.
@Suite struct TokenBucketTests {
    let second: UInt64 = 1_000_000_000

    /// How many of `count` requests at `now` the bucket lets through.
    private func allowed(_ bucket: inout TokenBucket, _ rate: TokenBucket.Rate, _ count: Int, at now: UInt64) -> Int {
        (0..<count).filter { _ in bucket.take(now: now, at: rate) }.count
    }

    @Test func aFullBucketAllowsExactlyTheBurst() {
        let rate = TokenBucket.Rate(perSecond: 2, burst: 5)
        var bucket = TokenBucket(full: rate, now: 0)
        #expect(allowed(&bucket, rate, 5, at: 0) == 5)
        #expect(allowed(&bucket, rate, 1, at: 0) == 0)
    }

    @Test func tokensComeBackAtTheRateAndNoSooner() {
        let rate = TokenBucket.Rate(perSecond: 2, burst: 5)
        var bucket = TokenBucket(full: rate, now: 0)
        #expect(allowed(&bucket, rate, 5, at: 0) == 5)
        // One token takes half a second at 2 a second: half of one is not enough.
        #expect(allowed(&bucket, rate, 1, at: second / 4) == 0)
        #expect(allowed(&bucket, rate, 2, at: second / 2 + 1_000) == 1)
    }

    @Test func savingsNeverExceedTheBurst() {
        let rate = TokenBucket.Rate(perSecond: 100, burst: 3)
        var bucket = TokenBucket(full: rate, now: 0)
        #expect(allowed(&bucket, rate, 4, at: 3_600 * second) == 3)
    }
}
