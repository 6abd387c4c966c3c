import ParleySync

/// Counts errors by kind. Errors are never dropped silently: each is counted under its
/// reason, and past a few dozen distinct reasons the rest are counted as "other".
final class ErrorTally: Sendable {
    private let counts = PThreadMutex<[String: Int]>([:])
    private static let maxReasons = 32

    /// Counts one error of kind `reason`.
    func add(_ reason: String, count: Int = 1) {
        counts.withLock { table in
            if table[reason] == nil && table.count >= Self.maxReasons {
                table["other", default: 0] += count
            } else {
                table[reason, default: 0] += count
            }
        }
    }

    /// Every reason with its count.
    var snapshot: [String: Int] { counts.withLock { $0 } }

    /// All errors counted.
    var total: Int { counts.withLock { $0.values.reduce(0, +) } }

    /// Adds another tally's counts to these.
    func merge(_ other: [String: Int]) {
        for (reason, count) in other { add(reason, count: count) }
    }

    /// One line per reason, most frequent first.
    static func lines(_ table: [String: Int]) -> [String] {
        table.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map { "\($0.value) × \($0.key)" }
    }
}
