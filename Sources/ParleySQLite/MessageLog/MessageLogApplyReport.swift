/// What the writer's apply of acknowledged message rows (`--message-log-apply later`,
/// `MessageLogApplier`) and the `message-log` thread that syncs them (`MessageLogSyncer`)
/// tell the server about themselves, for its log: the store has no logger.
/// A failed step loses nothing (the rows are in the log, reads and writes still apply them
/// first, and the next step tries again), but while it fails the log cannot shrink.
public enum MessageLogApplyReport: Sendable, Equatable {
    /// A step failed; told at the 1st, 10th, 100th… failure in a row. `waiting`: rows
    /// acknowledged and not yet in SQLite.
    case stepFailed(reason: String, failedSteps: Int, waiting: Int)
    /// A step succeeded after `failedSteps` failures in a row.
    case recovered(failedSteps: Int)
    /// The log's sync failed (told once): every write waiting for it and every later one
    /// fails, until the server is restarted (which replays what the log has).
    /// `failedBatches`: the writer's hand-offs (one a batch) whose callers it failed.
    case syncFailed(reason: String, failedBatches: Int)
}
