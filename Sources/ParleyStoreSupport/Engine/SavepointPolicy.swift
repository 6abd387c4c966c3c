/// When the writes of one batch get a savepoint each, so that a failed write undoes only its
/// own changes. (A transaction that holds a single write never needs one: rolling the
/// transaction back undoes exactly that write.)
package enum SavepointPolicy: Sendable {
    /// Every write of a batch runs in its own savepoint from the start (PostgreSQL, where a
    /// failed statement fails the whole transaction until it is rolled back to a savepoint,
    /// and a savepoint rides along with the next statement at no cost).
    case everyWrite
    /// Writes run without savepoints first, because a savepoint is not free (SQLite copies
    /// every page a savepoint's changes touch into a sub-journal) and nearly every write
    /// either succeeds or fails before changing anything. Only when a write fails *after*
    /// changing rows (`StoreWriteSession.changeCount` moved) is the transaction rolled back and
    /// the batch run again from its start, each write in its own savepoint.
    case afterAFailedChange
}
