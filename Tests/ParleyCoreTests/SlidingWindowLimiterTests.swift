import Testing
@testable import ParleyCore

@Suite struct SlidingWindowLimiterTests {
    @Test func allowsUpToTheLimitThenSaysHowLongToWait() {
        let limiter = SlidingWindowLimiter(limit: 3, windowSeconds: 60)
        #expect(limiter.attempt("a", now: 0) == nil)
        #expect(limiter.attempt("a", now: 1_000) == nil)
        #expect(limiter.attempt("a", now: 2_000) == nil)
        #expect(limiter.attempt("a", now: 3_000) == 57)
        #expect(limiter.attempt("b", now: 3_000) == nil)
        // The first event leaves the window after 60 s.
        #expect(limiter.attempt("a", now: 60_001) == nil)
    }

    @Test func keepsAtMostMaxKeys() {
        let limiter = SlidingWindowLimiter(limit: 1, windowSeconds: 60, maxKeys: 10)
        for i in 0..<100 { #expect(limiter.attempt("k\(i)", now: Int64(i)) == nil) }
        // Old keys were dropped to stay bounded, so k0 may try again.
        #expect(limiter.attempt("k0", now: 200) == nil)
        #expect(limiter.attempt("k99", now: 200) != nil)
    }
}
