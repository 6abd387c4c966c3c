import Glibc
import ParleyCore

/// The body of one writer thread: takes every queued write (up to `batchLimit`) and commits
/// them together, so that concurrent writers share one transaction and one commit (one fsync,
/// one WAL flush) instead of paying one each. Nobody hears back before the commit that holds
/// their changes has returned.
///
/// **One failure undoes only its own changes.** A transaction of one write needs nothing
/// more: if it fails, the transaction is rolled back. In a batch, each write runs in a
/// savepoint of its own, from the start or only after a failure, as the backend's
/// `SavepointPolicy` says: without savepoints, a write that fails *after* changing rows has
/// the transaction rolled back and the batch run again from its start, this time isolated.
/// A closure that swallowed an error which failed the transaction is refused alone.
///
/// **Retries.** A failure the session calls retryable (a deadlock or serialization failure
/// against another writer) says nothing about the writes themselves: the transaction is
/// rolled back and its writes run again, each in a transaction of its own (a big batch that
/// deadlocked would likely deadlock again), with the backend's `WriteRetryRule` pauses.
///
/// Running a closure twice is safe because write closures touch nothing but the store (the
/// `Store` contract), and only the last run's result reaches its caller.
///
/// **Answers.** Every outcome (a commit's, a refusal's, an abandoned batch's) is collected
/// in the order it was decided and handed to the session's `tell` after each run of a
/// batch, so a session that makes its commits durable on another thread answers nobody
/// before what was committed earlier is durable (`StoreWriteSession.tell`).
final class GroupCommitWriter: @unchecked Sendable {
    // @unchecked Sendable so that the thread can be handed it. Invariant: after `init`,
    // `session` (a connection, not Sendable) is used only by the writer thread, in `run()`.

    typealias Job = WriteJob

    // An existential, not a generic parameter: see `WriteJob` for what generics cost here.
    private let session: any StoreWriteSession
    private let queue: JobQueue<Job>
    private let commits: CommitCounter
    private let savepoints: SavepointPolicy
    private let retryRule: WriteRetryRule
    /// Most writes per transaction: bounds how long one commit holds the write lock and how
    /// long the first caller of a batch waits for the last.
    private let batchLimit: Int
    /// The outcomes decided and not yet handed to the session's `tell`, oldest first.
    private var answers: [Answer] = []

    /// One caller's outcome, decided on the writer thread and told through the session.
    private enum Answer: Sendable {
        /// `WriteJob.finish`: the job's own result, or the commit's error.
        case finish(Job, commitError: (any Error)?)
        /// `WriteJob.abandon`: the batch could not run.
        case abandon(Job, any Error)

        /// Tells the caller its outcome, or `override` instead (what the commit needed after
        /// it failed: no outcome of the batch may be trusted).
        func tell(overriding override: (any Error)?) {
            if let override {
                job.abandon(override)
                return
            }
            switch self {
            case .finish(let job, let commitError):
                job.finish(commitError: commitError ?? override)
            case .abandon(let job, let error):
                job.abandon(error)
            }
        }

        private var job: Job {
            switch self {
            case .finish(let job, _), .abandon(let job, _): return job
            }
        }
    }

    init(session: any StoreWriteSession, savepoints: SavepointPolicy, retryRule: WriteRetryRule, queue: JobQueue<Job>,
         commits: CommitCounter, batchLimit: Int) {
        self.session = session
        self.queue = queue
        self.commits = commits
        self.savepoints = savepoints
        self.retryRule = retryRule
        self.batchLimit = max(1, batchLimit)
    }

    /// Serves batches until the queue is closed and drained, and between them the session's
    /// upkeep when it is due (waking for it when no write comes first).
    func run() {
        guard let upkeep = session.upkeep else {
            while let batch = queue.take(upTo: batchLimit) {
                commit(batch[...])
            }
            return
        }
        let clock = ContinuousClock()
        while true {
            let wait = upkeep.due(at: clock.now)
            if let wait, wait <= .zero {
                upkeep.runStep(at: clock.now)
                continue
            }
            switch queue.take(upTo: batchLimit, waitingAtMost: wait) {
            case .jobs(let batch): commit(batch[...])
            case .timedOut: continue
            case .closed: return
            }
        }
    }

    /// How the transactions of a batch ended.
    private enum Outcome {
        /// Every caller has been told.
        case finished
        /// A retryable failure: nothing of `remaining` was kept and none of them was told.
        case retry(any Error, remaining: ArraySlice<Job>)
    }

    /// How one pass over the jobs of a transaction ended.
    private enum Pass {
        /// Every job ran; commit.
        case ran
        /// A job failed after changing rows (or failing the transaction), with no savepoint
        /// to undo it: roll back and run the same jobs again, each isolated.
        case failedChange
        /// A single job failed: the transaction was rolled back, which undid exactly it.
        case refusedAlone
        /// The database rolled the transaction back itself after the last job of `ran`.
        case lost(ran: ArraySlice<Job>)
        /// A retryable failure: rolled back, nothing of the transaction was kept.
        case retry(any Error)
        /// Transaction control itself failed (a lost connection): rolled back; `ran` had run,
        /// the rest of `pending` had not.
        case aborted(any Error, ran: ArraySlice<Job>)
    }

    /// Commits `batch`, with the retries the backend's rule allows.
    private func commit(_ batch: ArraySlice<Job>) {
        var jobs = batch
        var attempt = 1
        while case .retry(let failure, let remaining) = runAndTell(jobs) {
            if remaining.count > 1 {
                for job in remaining { commit([job][...]) }
                return
            }
            guard let pause = retryRule.pause(after: attempt) else {
                let error = session.translate(failure, during: "write (gave up after \(attempt) attempts)")
                for job in remaining { answers.append(.abandon(job, error)) }
                tellAnswers()
                return
            }
            sleep(for: pause)
            jobs = remaining
            attempt += 1
        }
    }

    /// `run`, then hands the outcomes it decided to the session.
    private func runAndTell(_ batch: ArraySlice<Job>) -> Outcome {
        let outcome = run(batch)
        tellAnswers()
        return outcome
    }

    /// Hands the outcomes decided so far to the session's `tell`, which answers the callers
    /// in that order (at once, or once what was committed before them is durable).
    private func tellAnswers() {
        guard !answers.isEmpty else { return }
        let decided = answers
        answers = []
        session.tell { failure in
            for answer in decided { answer.tell(overriding: failure) }
        }
    }

    /// Runs `batch` in as many transactions as it takes (a new one after the database lost
    /// one, for the jobs it had not reached) and tells every caller, unless it must be retried.
    private func run(_ batch: ArraySlice<Job>) -> Outcome {
        var pending = batch
        var isolated = savepoints == .everyWrite
        while !pending.isEmpty {
            do {
                try session.begin()
            } catch {
                let failure = session.translate(error, during: "begin write transaction")
                for job in pending { answers.append(.abandon(job, failure)) }
                return .finished
            }
            let transaction = pending
            switch pass(&pending, isolated: isolated) {
            case .ran:
                do {
                    try session.commit()
                    commits.increment()
                    for job in transaction { answers.append(.finish(job, commitError: nil)) }
                } catch {
                    session.rollBack()
                    if let retryable = session.retryableFailure { return .retry(retryable, remaining: transaction) }
                    // A commit whose answer was lost with the connection may or may not have
                    // happened; the callers are told it failed, which is what they must assume.
                    let failure = session.translate(error, during: "commit")
                    for job in transaction { answers.append(.finish(job, commitError: failure)) }
                }
            case .failedChange:
                session.rollBack()
                pending = transaction
                isolated = true
            case .refusedAlone:
                if let job = transaction.first { answers.append(.finish(job, commitError: nil)) }
            case .lost(let ran):
                let lost = StoreError.failure("write: the database rolled the transaction back after an error; nothing was saved")
                for job in ran { answers.append(.finish(job, commitError: lost)) }
            case .retry(let failure):
                return .retry(failure, remaining: transaction)
            case .aborted(let error, let ran):
                let failure = session.translate(error, during: "write")
                for job in ran { answers.append(.finish(job, commitError: failure)) }
                for job in pending { answers.append(.abandon(job, failure)) }
                return .finished
            }
        }
        return .finished
    }

    /// Runs jobs from `pending` in the open transaction until it is empty or the pass ends.
    private func pass(_ pending: inout ArraySlice<Job>, isolated: Bool) -> Pass {
        let transaction = pending
        let alone = pending.count == 1
        let savepoint = isolated && !alone
        while let job = pending.popFirst() {
            if savepoint {
                do { try session.beginWrite() } catch { return abort(error, ran: transaction[..<pending.startIndex]) }
            }
            let changesBefore = session.changeCount
            var succeeded = job.perform(on: session) { session.translate($0, during: "write") }
            if let retryable = session.retryableFailure {
                session.rollBack()
                return .retry(retryable)
            }
            var failedTheTransaction = false
            switch session.state {
            case .open:
                break
            case .lost:
                // The writes done so far are gone, and the rest must not run outside a
                // transaction: a new one is begun for them.
                session.rollBack()
                return .lost(ran: transaction[..<pending.startIndex])
            case .failed:
                failedTheTransaction = true
                if succeeded {
                    job.refuse(StoreError.failure("write: an earlier statement failed the transaction; nothing was saved"))
                    succeeded = false
                }
            }
            if succeeded {
                if savepoint {
                    do { try session.keepWrite() } catch { return abort(error, ran: transaction[..<pending.startIndex]) }
                }
                continue
            }
            if alone {
                session.rollBack()
                return .refusedAlone
            }
            if savepoint {
                do { try session.undoWrite() } catch { return abort(error, ran: transaction[..<pending.startIndex]) }
            } else if failedTheTransaction || session.changeCount != changesBefore {
                return .failedChange
            }
            // Failed before changing anything (a refused permission, a statement the database
            // undid by itself): nothing to undo.
        }
        return .ran
    }

    /// Ends a pass whose transaction control failed: a retryable cause retries, anything else
    /// aborts the batch. `ran` is this transaction's jobs up to the current one (which is
    /// finished with the failure if it has no result of its own).
    private func abort(_ error: any Error, ran: ArraySlice<Job>) -> Pass {
        session.rollBack()
        if let retryable = session.retryableFailure { return .retry(retryable) }
        return .aborted(error, ran: ran)
    }

    private func sleep(for pause: Duration) {
        if pause.microseconds > 0 { usleep(UInt32(clamping: pause.microseconds)) }
    }
}
