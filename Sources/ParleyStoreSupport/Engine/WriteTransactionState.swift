/// Where a writer's transaction stands after a write closure ran, as its database reports it.
package enum WriteTransactionState: Sendable {
    /// Open and usable.
    case open
    /// Open, but a statement failed it: every further statement is refused until it is
    /// rolled back to a savepoint (PostgreSQL). A closure that caught that statement's
    /// error and returned normally cannot have its changes kept.
    case failed
    /// Gone: the database rolled it back by itself (SQLite after a full disk or an I/O error)
    /// or the connection was lost. Nothing of it was kept.
    case lost
}
