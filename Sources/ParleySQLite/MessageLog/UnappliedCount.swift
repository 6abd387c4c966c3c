import Synchronization

/// How many acknowledged message rows are not yet in SQLite's committed state
/// (`--message-log-apply later`): set by the writer after each commit, read by every read,
/// which applies them first when there are any (`SQLiteStore.read`).
final class UnappliedCount: Sendable {
    private let value = Atomic<Int>(0)

    /// The count; a read that starts after an acknowledgement sees its row counted (the
    /// writer stores it before telling anyone).
    var count: Int { value.load(ordering: .acquiring) }

    func set(_ count: Int) {
        value.store(count, ordering: .releasing)
    }
}
