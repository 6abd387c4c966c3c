import ParleyCore
import ParleySQL
import ParleyStoreSupport

/// The body of the writer thread: takes every queued write (up to `batchLimit`) and commits
/// them together, so that concurrent writers share one transaction and one fsync instead of
/// paying one each. Durability per caller is unchanged: nobody hears back before the commit
/// that holds their changes has returned.
///
/// Each write runs in its own savepoint, so a write that throws undoes only its own changes
/// and the rest of the batch commits without it.
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
        while let batch = queue.take(upTo: batchLimit) {
            commit(batch[...])
        }
    }

    private func commit(_ batch: ArraySlice<WriteJob>) {
        var pending = batch
        let writer = SQLiteStoreWriter(connection: connection)
        while !pending.isEmpty {
            do {
                try connection.runPrepared("BEGIN IMMEDIATE")
            } catch {
                let failure = StoreError.translating(error, during: "begin write transaction")
                for job in pending { job.abandon(failure) }
                return
            }
            var finishes: [WriteJob.Finish] = []
            finishes.reserveCapacity(pending.count)
            var transactionLost = false
            while let job = pending.popFirst() {
                finishes.append(job.perform(writer))
                // Some errors (a full disk, an I/O error) make SQLite roll back the whole
                // transaction, not just the statement. The writes done so far are gone, and
                // the rest must not run outside a transaction: start a new one for them.
                if !connection.isInTransaction {
                    transactionLost = true
                    break
                }
            }
            if transactionLost {
                let lost = StoreError.failure("SQLite rolled back the write transaction after an error; nothing was saved")
                for finish in finishes { finish(lost) }
                continue
            }
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
