import ParleyCore
import ParleySQL
import ParleyStoreSupport

/// The body of the writer thread: takes every queued write (up to `batchLimit`) and commits
/// them together, so that concurrent writers share one transaction and one fsync instead of
/// paying one each. Durability per caller is unchanged: nobody hears back before the commit
/// that holds their changes has returned.
///
/// A write that throws undoes only its own changes; the rest of the batch commits without
/// it. Writes run without a savepoint each at first: a savepoint costs two statements and a
/// copy of every page the write touches (SQLite's sub-journal), and nearly every write
/// either succeeds or fails before changing anything (a refused permission, a refused
/// insert, which SQLite undoes as a statement). Only when a write fails *after* changing
/// rows (the connection's change counter moved) is the transaction rolled back and the
/// batch run again from its start, this time each write in its own savepoint. Running a
/// closure twice is safe because write closures touch nothing but the store (the contract
/// PostgreSQL's retries rely on too), and only the last run's result reaches its caller.
final class GroupCommitWriter: Sendable {
    // Sendable so that the thread can be handed it. Invariant: after `init`, `connection`
    // is used only by the writer thread, inside `run()`.

    private let connection: SQLiteConnection
    private let queue: JobQueue<WriteJob>
    private let commits: CommitCounter
    /// Most writes per transaction: bounds how long one commit holds the write lock and how
    /// long the first caller of a batch waits for the last.
    private let batchLimit: Int

    init(connection: SQLiteConnection, queue: JobQueue<WriteJob>, commits: CommitCounter, batchLimit: Int) {
        self.connection = connection
        self.queue = queue
        self.commits = commits
        self.batchLimit = max(1, batchLimit)
    }

    /// Serves batches until the queue is closed and drained.
    func run() {
        // Made here, on the writer thread, which alone uses the connection's statements.
        let writer = SQLiteStoreWriter(connection: connection, sending: SendStatements(connection: connection))
        while let batch = queue.take(upTo: batchLimit) {
            commit(batch[...], writer)
        }
    }

    /// How one pass over the jobs of a transaction ended.
    private enum Pass {
        /// Every job ran; commit their changes.
        case ran([WriteJob.Finish])
        /// A job failed after changing rows, with no savepoint to undo it: roll back and run
        /// the same jobs again, each isolated.
        case mixedFailure
        /// SQLite rolled the transaction back itself; the finishes are of the jobs it took.
        case transactionLost([WriteJob.Finish])
    }

    private func commit(_ batch: ArraySlice<WriteJob>, _ writer: SQLiteStoreWriter) {
        var pending = batch
        var isolated = false
        while !pending.isEmpty {
            do {
                try connection.runPrepared("BEGIN IMMEDIATE")
            } catch {
                let failure = StoreError.translating(error, during: "begin write transaction")
                for job in pending { job.abandon(failure) }
                return
            }
            let transactionStart = pending
            switch run(&pending, writer, isolated: isolated) {
            case .mixedFailure:
                if connection.isInTransaction { try? connection.execute("ROLLBACK") }
                pending = transactionStart
                isolated = true
            case .transactionLost(let finishes):
                let lost = StoreError.failure("SQLite rolled back the write transaction after an error; nothing was saved")
                for finish in finishes { finish(lost) }
            case .ran(let finishes):
                do {
                    try connection.runPrepared("COMMIT")
                    commits.increment()
                    for finish in finishes { finish(nil) }
                } catch {
                    // The commit's error is the one worth reporting; a failed rollback adds nothing.
                    if connection.isInTransaction { try? connection.execute("ROLLBACK") }
                    let failure = StoreError.translating(error, during: "commit")
                    for finish in finishes { finish(failure) }
                }
            }
        }
    }

    /// Runs jobs from `pending` in the open transaction until it is empty or the pass ends.
    private func run(_ pending: inout ArraySlice<WriteJob>, _ writer: SQLiteStoreWriter, isolated: Bool) -> Pass {
        var finishes: [WriteJob.Finish] = []
        finishes.reserveCapacity(pending.count)
        while let job = pending.popFirst() {
            let changesBefore = connection.totalChanges
            let outcome = job.perform(writer, isolated)
            finishes.append(outcome.finish)
            // Some errors (a full disk, an I/O error) make SQLite roll back the whole
            // transaction, not just the statement. The writes done so far are gone, and the
            // rest must not run outside a transaction: start a new one for them.
            if !connection.isInTransaction {
                return .transactionLost(finishes)
            }
            if outcome.failed && !isolated && connection.totalChanges != changesBefore {
                return .mixedFailure
            }
        }
        return .ran(finishes)
    }
}
