/// The failed steps in a row of a writer upkeep (`SearchIndexer`, `MessageLogApplier`), and
/// which of them are worth telling: the 1st, 10th, 100th… (a lasting failure is told a few
/// times, not at every retry), and the recovery once.
struct FailureStreak {
    /// Failed steps in a row (0: the last step succeeded).
    private(set) var count = 0

    /// A step failed; true when this failure is to be told.
    mutating func failed() -> Bool {
        count += 1
        return Self.isReported(count)
    }

    /// Whether the `count`th failure in a row is told: the 1st, 10th, 100th…
    static func isReported(_ count: Int) -> Bool {
        var step = count
        while step >= 10 && step % 10 == 0 { step /= 10 }
        return step == 1
    }

    /// A step succeeded: the failures in a row it ended, to be told as a recovery (nil: none).
    mutating func succeeded() -> Int? {
        defer { count = 0 }
        return count > 0 ? count : nil
    }
}
