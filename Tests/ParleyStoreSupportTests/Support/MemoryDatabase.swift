import ParleySync

/// The test backend's "database": committed key-value rows, shared by the writer session
/// and the readers, and the log of every transaction statement the engine issued, in order.
final class MemoryDatabase: Sendable {
    private struct State {
        var rows: [String: Int] = [:]
        var log: [String] = []
    }

    private let state = PThreadMutex(State())

    /// The committed rows.
    var rows: [String: Int] { state.withLock { $0.rows } }
    /// The statements so far ("begin", "savepoint", "release", "rollback to", "commit",
    /// "rollback").
    var log: [String] { state.withLock { $0.log } }

    func record(_ statement: String) {
        state.withLock { $0.log.append(statement) }
    }

    /// A key whose row the database refuses to commit, as it would refuse a commit on a
    /// full disk: the commit fails and nothing of the transaction is kept.
    static let uncommittable = "uncommittable"

    /// Keeps `rows` as the committed state, unless one of them is `uncommittable`.
    func commit(_ rows: [String: Int]) throws(MemoryDatabaseError) {
        try state.withLock { (state: inout State) throws(MemoryDatabaseError) in
            state.log.append("commit")
            guard rows[Self.uncommittable] == nil else { throw .commitRefused }
            state.rows = rows
        }
    }
}

/// What the test database fails with.
enum MemoryDatabaseError: Error, Equatable {
    case commitRefused
    /// A lost race against another writer: the whole transaction must run again.
    case deadlock
}
