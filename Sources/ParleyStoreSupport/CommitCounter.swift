import Synchronization

/// The number of successful commits, for tests and metrics.
package final class CommitCounter: Sendable {
    package init() {}

    private let value = Atomic<Int>(0)

    /// Commits so far.
    package var count: Int { value.load(ordering: .relaxed) }

    package func increment() {
        value.add(1, ordering: .relaxed)
    }
}
