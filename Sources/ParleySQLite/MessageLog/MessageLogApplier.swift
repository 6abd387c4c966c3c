import ParleyStoreSupport

/// The writer's upkeep with `--message-log-apply later`: inserts the committed message rows
/// not yet in SQLite (`UnappliedMessages`), every one waiting in one transaction of the
/// write session, once `applyBatchRows` wait or the oldest has waited `applyDelay`. Reads
/// and other writes do not wait for it: they apply what waits themselves
/// (`MessageLogJournal`).
///
/// The step needs no sync of its own for rows the log has synced. A row still on its way to
/// the log (`MessageLogSyncer`) makes the commit sync SQLite's WAL (`MessageLogJournal`), and
/// if the log then never gets it (a kill, a failed sync) the next open appends it to the log
/// (`MessageLogReplay.catchUp`).
///
/// A failed step leaves the rows waiting and is retried after the delay (at least
/// `failurePause`); failures are told (`MessageLogApplyReport`) at the 1st, 10th, 100th… in
/// a row, and the recovery once.
///
/// Owned by the write session, on its thread.
final class MessageLogApplier: WriterUpkeep {
    private let unapplied: UnappliedMessages
    private let settings: MessageLogSettings
    private let report: @Sendable (MessageLogApplyReport) -> Void
    /// The session whose transactions the steps run in (it owns this upkeep).
    weak var session: SQLiteWriteSession?
    private var failures = FailureStreak()
    private var lastFailure: ContinuousClock.Instant?
    /// The least wait after a failed step, also with no delay, so a lasting failure never
    /// keeps the writer from its writes.
    static let failurePause = Duration.milliseconds(100)

    init(unapplied: UnappliedMessages, settings: MessageLogSettings, report: @escaping @Sendable (MessageLogApplyReport) -> Void) {
        self.unapplied = unapplied
        self.settings = settings
        self.report = report
    }

    func due(at now: ContinuousClock.Instant) -> Duration? {
        // After a failed sync of the log the store writes nothing more.
        guard session?.hasFailed != true, unapplied.committedRows > 0, let since = unapplied.waitingSince else { return nil }
        if let lastFailure { return lastFailure.advanced(by: max(settings.applyDelay, Self.failurePause)) - now }
        if unapplied.committedRows >= settings.applyBatchRows { return .zero }
        return since.advanced(by: settings.applyDelay) - now
    }

    func runStep(at now: ContinuousClock.Instant) {
        guard let session else { return }
        do {
            try session.begin()
            do {
                try session.applyUnapplied()
                try session.commit()
            } catch {
                session.rollBack()
                throw error
            }
            if let failedSteps = failures.succeeded() { report(.recovered(failedSteps: failedSteps)) }
            lastFailure = nil
        } catch {
            lastFailure = now
            if failures.failed() {
                report(.stepFailed(reason: String(describing: error), failedSteps: failures.count, waiting: unapplied.committedRows))
            }
        }
    }
}
