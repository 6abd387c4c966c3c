import Glibc
import ParleyCore
import ParleyStoreSupport

/// The body of one writer thread: takes queued writes (up to `batchLimit`) and commits them
/// in one transaction, so that concurrent writers share one commit (one WAL flush on the
/// server) instead of paying one each. Nobody hears back before the commit that holds their
/// changes has succeeded.
///
/// Each write of a batch runs in its own savepoint, so a write that throws undoes only its
/// own changes and the rest of the batch commits without it. (A batch of one needs no
/// savepoint: the transaction is its own.)
///
/// **Retries.** Transactions of several writer threads, or several servers, can deadlock
/// (one batch touches conversations A then B, another B then A); PostgreSQL then fails one
/// of them. Such a failure says nothing about the writes themselves, so the batch is rolled
/// back and its writes run again, each in a transaction of its own, up to `maxAttempts`
/// times each. Write closures must therefore
/// leave everything but the store alone: they may run more than once (their caller still
/// hears back once, from the run that was committed).
final class PostgresGroupCommitWriter: @unchecked Sendable {
    // @unchecked Sendable so that the thread can be handed it. Invariant: after `init`,
    // `connection` (a non-Sendable libpq handle) is used only by the writer thread, inside
    // `run()`.

    /// Runs of one batch before its writes fail with the last deadlock's error.
    static let maxAttempts = 8

    private let connection: PostgresConnection
    private let queue: JobQueue<PostgresWriteJob>
    private let commits: CommitCounter
    private let batchLimit: Int

    init(connection: PostgresConnection, queue: JobQueue<PostgresWriteJob>, commits: CommitCounter, batchLimit: Int) {
        self.connection = connection
        self.queue = queue
        self.commits = commits
        self.batchLimit = max(1, batchLimit)
    }

    /// Serves batches until the queue is closed and drained.
    func run() {
        while let batch = queue.take(upTo: batchLimit) {
            commit(batch)
        }
    }

    /// How one run of a batch ended.
    private enum Outcome {
        /// Committed, or rolled back with every caller told why: the batch is done.
        case finished
        /// Lost a deadlock or serialization race: nothing was kept; run the writes again.
        case retry(PostgresError)
    }

    private func commit(_ batch: [PostgresWriteJob]) {
        var attempt = 1
        while true {
            switch run(batch) {
            case .finished:
                return
            case .retry(let error):
                if batch.count > 1 {
                    // A big transaction that deadlocked is likely to deadlock again, and each
                    // time costs the server's deadlock_timeout. Alone, each write holds few
                    // locks for a short time, so the writes go one transaction each.
                    for job in batch { commit([job]) }
                    return
                }
                guard attempt < Self.maxAttempts else {
                    let failure = StoreError.postgres(error, during: "write (gave up after \(attempt) attempts)")
                    for job in batch { job.abandon(failure) }
                    return
                }
                // A doubling, jittered pause (1, 2, 4 … 64 ms, plus up to as much again at
                // random), so writers that collided do not collide again in lockstep: under
                // load, pauses growing by a millisecond let the same pair meet eight times.
                let pause = 1_000 << (attempt - 1)
                usleep(UInt32(pause + Int.random(in: 0..<pause)))
                attempt += 1
            }
        }
    }

    private func run(_ batch: [PostgresWriteJob]) -> Outcome {
        if !connection.isConnected {
            do {
                try connection.reconnect()
            } catch {
                let failure = StoreError.postgres(error, during: "write")
                for job in batch { job.abandon(failure) }
                return .finished
            }
        }
        connection.clearTransientFailure()
        connection.discardDeferred()
        // Travels with the first statement of the batch.
        connection.deferCommand("BEGIN")
        let writer = PostgresStoreWriter(connection: connection)
        return batch.count == 1 ? runAlone(batch[0], writer: writer) : runShared(batch, writer: writer)
    }

    /// A batch of one: the transaction is the job's own, so a failure rolls it all back.
    private func runAlone(_ job: PostgresWriteJob, writer: PostgresStoreWriter) -> Outcome {
        let (succeeded, finish) = job.perform(writer)
        if let transient = connection.transientFailure {
            rollBack()
            return .retry(transient)
        }
        guard succeeded else {
            rollBack()
            finish(nil)
            return .finished
        }
        if connection.isInFailedTransaction {
            // The closure caught an error and carried on, but PostgreSQL has already failed
            // the transaction: nothing of it can be kept.
            rollBack()
            finish(StoreError.failure("write: an earlier statement failed the transaction; nothing was saved"))
            return .finished
        }
        return commit(kept: [finish], refused: [])
    }

    /// Several jobs, each in its own savepoint. Nobody is resumed before the batch is over,
    /// not even a job whose closure threw: a retry runs every job again.
    private func runShared(_ batch: [PostgresWriteJob], writer: PostgresStoreWriter) -> Outcome {
        var kept: [PostgresWriteJob.Finish] = []
        var refused: [PostgresWriteJob.Finish] = []
        kept.reserveCapacity(batch.count)
        for (index, job) in batch.enumerated() {
            // Travels with the job's first statement. A job that succeeds leaves it in place
            // (released at commit), which saves a round trip per job; a rollback below goes
            // to the newest savepoint of the name, its own.
            connection.deferCommand("SAVEPOINT parley_write")
            var (succeeded, finish) = job.perform(writer)
            if let transient = connection.transientFailure {
                rollBack()
                return .retry(transient)
            }
            if succeeded {
                guard connection.isInFailedTransaction else {
                    kept.append(finish)
                    continue
                }
                // The closure swallowed an error that failed the transaction: undo its part
                // and tell it so; the rest of the batch goes on.
                let told = finish
                finish = { _ in told(StoreError.failure("write: an earlier statement failed the transaction; nothing was saved")) }
            }
            refused.append(finish)
            do {
                try connection.execute("ROLLBACK TO SAVEPOINT parley_write; RELEASE SAVEPOINT parley_write")
            } catch {
                return abort(with: error, kept: kept, refused: refused, unstarted: batch[(index + 1)...])
            }
        }
        return commit(kept: kept, refused: refused)
    }

    /// Commits and resumes every caller: those whose writes were kept with the commit's
    /// outcome, those refused with their own error.
    private func commit(kept: [PostgresWriteJob.Finish], refused: [PostgresWriteJob.Finish]) -> Outcome {
        var failure: (any Error)?
        do {
            let result = try connection.execute("COMMIT")
            // COMMIT of a failed transaction "succeeds" by rolling back.
            if result.commandStatus != "COMMIT" {
                failure = StoreError.failure("commit: PostgreSQL rolled the transaction back; nothing was saved")
            }
        } catch {
            rollBack()
            if error.isTransient { return .retry(error) }
            // A commit whose answer was lost with the connection may or may not have happened;
            // the callers are told it failed, which is what they must assume.
            failure = StoreError.postgres(error, during: "commit")
        }
        if failure == nil { commits.increment() }
        for finish in refused { finish(nil) }
        for finish in kept { finish(failure) }
        return .finished
    }

    /// Gives up on the batch after transaction control itself failed (a lost connection):
    /// every caller is told, whether their closure ran or not.
    private func abort(with error: any Error, kept: [PostgresWriteJob.Finish], refused: [PostgresWriteJob.Finish],
                       unstarted: ArraySlice<PostgresWriteJob>) -> Outcome {
        if let transient = connection.transientFailure {
            rollBack()
            return .retry(transient)
        }
        rollBack()
        let failure = StoreError.translating(error, during: "write")
        for finish in refused { finish(nil) }
        for finish in kept { finish(failure) }
        for job in unstarted { job.abandon(failure) }
        return .finished
    }

    private func rollBack() {
        connection.discardDeferred()
        if connection.isInTransaction { _ = try? connection.execute("ROLLBACK") }
    }
}
