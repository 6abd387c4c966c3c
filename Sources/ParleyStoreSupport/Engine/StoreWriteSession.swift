/// One writer thread's connection as `GroupCommitWriter` drives it: its transaction
/// statements and what its database says about the transaction. Used only on its writer
/// thread, so it need not be `Sendable`.
package protocol StoreWriteSession: AnyObject {
    /// What write closures get (on this session's connection).
    associatedtype Writer

    /// What write closures get.
    var writer: Writer { get }

    /// Makes the connection ready (a dropped one is made again) and begins a write
    /// transaction. A backend may defer the `BEGIN` to travel with the first statement.
    func begin() throws
    /// Commits the transaction; throws if the changes were not kept.
    func commit() throws
    /// Rolls back whatever is open, ignoring errors (a failure is already being reported).
    func rollBack()
    /// Opens the savepoint of the next write.
    func beginWrite() throws
    /// Keeps the changes of the write whose savepoint is the newest one.
    func keepWrite() throws
    /// Undoes the changes of the write whose savepoint is the newest one, and closes it.
    func undoWrite() throws

    /// The transaction as the database sees it now.
    var state: WriteTransactionState { get }
    /// A count that moves whenever a statement changes rows (for
    /// `SavepointPolicy.afterAFailedChange`; other backends may return 0).
    var changeCount: Int { get }
    /// A failure since `begin` after which the whole transaction must run again, however the
    /// closures handled it (PostgreSQL's deadlocks and serialization failures); nil when
    /// there is none, always nil for a backend that never retries.
    var retryableFailure: (any Error)? { get }

    /// `error` as callers of the store see it (the database's errors become `StoreError`,
    /// a closure's own errors are kept), `operation` naming what was being done.
    func translate(_ error: any Error, during operation: String) -> any Error

    /// Work the writer thread does between batches on this session's connection; nil: none.
    var upkeep: (any WriterUpkeep)? { get }

    /// Tells the callers of the writes decided since the last call, in the order they were
    /// decided: `answers` runs their completions, each with its own outcome when given nil,
    /// all failed with the error when given one. A session whose commits become durable after
    /// `COMMIT`, on a thread of its own, runs it there once everything committed before is
    /// durable (or failed to become so); every other session runs it at once.
    func tell(_ answers: @escaping @Sendable ((any Error)?) -> Void)
}

extension StoreWriteSession {
    /// No upkeep: every write is done in its own batch's transaction.
    package var upkeep: (any WriterUpkeep)? { nil }

    /// Commits are durable when `commit` returns: the callers are told at once.
    package func tell(_ answers: @escaping @Sendable ((any Error)?) -> Void) {
        answers(nil)
    }
}
