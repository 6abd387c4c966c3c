import Synchronization

/// The number of successful commits, for tests and metrics.
final class CommitCounter: Sendable {
    private let value = Atomic<Int>(0)

    /// Commits so far.
    var count: Int { value.load(ordering: .relaxed) }

    func increment() {
        value.add(1, ordering: .relaxed)
    }
}
