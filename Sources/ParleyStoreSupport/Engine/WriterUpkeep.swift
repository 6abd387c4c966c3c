/// Work a writer thread does for its backend between batches of writes, in transactions of
/// its own, so that it never lengthens a caller's write or delays its acknowledgement (the
/// SQLite store's full-text index, which messages join after their send has committed).
///
/// `GroupCommitWriter` asks `due(at:)` before taking each batch: work due now runs first,
/// and while there is work not yet due, an idle writer wakes for it when it is. One step
/// does a bounded amount, so queued writes wait at most one step.
package protocol WriterUpkeep: AnyObject {
    /// How long after `now` the waiting work is due; zero or less: due now; nil: none waits.
    func due(at now: ContinuousClock.Instant) -> Duration?

    /// Does one bounded step of the work, in a transaction of its own. Failures are the
    /// upkeep's to handle (it must not report itself due again at once after one, or the
    /// writer would spin on it).
    func runStep(at now: ContinuousClock.Instant)
}
