/// How many times a transaction that lost a race (a deadlock, a serialization failure) is
/// run, and how long the writer pauses between runs: a doubling pause (`firstPause`, twice
/// that, four times …) plus up to as much again at random, so writers that collided do not
/// collide again in lockstep.
package struct WriteRetryRule: Sendable, Equatable {
    /// Runs of one write before it fails with the last run's error; 1 never retries.
    package let maxAttempts: Int
    /// The pause before the second run, without its random part.
    package let firstPause: Duration

    package init(maxAttempts: Int, firstPause: Duration) {
        self.maxAttempts = max(1, maxAttempts)
        self.firstPause = firstPause
    }

    /// No retries (a backend whose transactions cannot lose a race: SQLite's single writer).
    package static let never = WriteRetryRule(maxAttempts: 1, firstPause: .zero)

    /// The pause before run `attempt + 1` after run `attempt` failed, nil when that was the
    /// last run allowed. `random` picks the jitter in `0..<bound` (bound > 0).
    package func pause(after attempt: Int, random: (Int64) -> Int64 = { Int64.random(in: 0..<$0) }) -> Duration? {
        guard attempt < maxAttempts else { return nil }
        let base = firstPause.microseconds << min(attempt - 1, 30)
        guard base > 0 else { return .zero }
        return .microseconds(base + random(base))
    }
}

extension Duration {
    /// Whole microseconds (truncated).
    var microseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000 + attoseconds / 1_000_000_000_000
    }
}
