import Synchronization

/// How many acknowledged message rows are not yet in SQLite's committed state
/// (`--message-log-apply later`), read by every read, which applies them first when there are
/// any (`SQLiteStore.read`). Rows are counted in the order the writer committed them (the
/// order they are synced and applied in): the `message-log` thread counts the rows synced
/// before it tells anyone about them, the writer counts the rows applied for good after each
/// commit, and the rows waiting are the synced ones not applied. A row applied before its
/// sync is not waiting: nobody was told about it yet, and it is in SQLite.
final class UnappliedCount: Sendable {
    private let synced = Atomic<Int>(0)
    private let applied = Atomic<Int>(0)

    /// The count; a read that starts after an acknowledgement sees its row counted (the
    /// log thread counts it before telling anyone).
    var count: Int { max(0, synced.load(ordering: .acquiring) - applied.load(ordering: .acquiring)) }

    /// Rows synced to the log since the store opened.
    var syncedRows: Int { synced.load(ordering: .acquiring) }

    /// `rows` more rows are synced (the `message-log` thread, before it tells their callers).
    func addSynced(_ rows: Int) {
        synced.wrappingAdd(rows, ordering: .releasing)
    }

    /// `total` rows are applied for good since the store opened (the writer, after a commit).
    func setApplied(_ total: Int) {
        applied.store(total, ordering: .releasing)
    }
}
