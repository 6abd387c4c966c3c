import ParleyCore

/// One caller's `write`, waiting in the writers' queue, with its result type erased so that
/// jobs of every type share one queue and one batch.
///
/// It runs in two steps because the caller may learn its result only after the batch's
/// commit: `perform` runs the closure and keeps its result, `finish` hands it over once the
/// fate of the commit is known. `perform` may run more than once (a batch run again isolated,
/// or after a deadlock): only the last run's result reaches the caller, exactly once.
///
/// One object per write and no closure of its own: this is the server's 1:1 hot path. Not
/// generic, so the writer loop that handles jobs is not either: generic code compiled apart
/// from its backend looks the metadata of every type built from the backend's types up at
/// run time, which cost the writer about 4,500 instructions a message (callgrind, see
/// docs/benchmarks-history.md).
class WriteJob: @unchecked Sendable {
    // @unchecked Sendable: a job is created by its caller, handed to one writer thread
    // through `JobQueue` (whose lock orders the two), and from then on touched by that
    // thread alone, until its outcome is decided and handed through the session's `tell`
    // (to the thread that tells the caller, through a queue whose lock orders them again);
    // the subclass's stored `result` is only read and written by one of them at a time.

    fileprivate init() {}

    /// Runs the closure on the writer thread with `session`'s writer, inside the batch's
    /// transaction, and keeps its result (`translate` gives the database's errors their store
    /// form). Returns whether the closure succeeded. `session` is the session of the store
    /// that made the job, so of the type the job was made for.
    func perform(on session: any StoreWriteSession, translate: (any Error) -> any Error) -> Bool {
        fatalError("WriteJob.perform must be overridden")
    }

    /// Replaces a successful result with `error`: the closure returned, but its changes
    /// cannot be kept (it swallowed an error that failed the transaction).
    func refuse(_ error: any Error) {
        fatalError("WriteJob.refuse must be overridden")
    }

    /// Tells the caller: its own result if the commit succeeded (`commitError` nil) or its
    /// closure threw, otherwise the commit's error (its changes were not kept).
    func finish(commitError: (any Error)?) {
        fatalError("WriteJob.finish must be overridden")
    }

    /// Fails the caller without (another) run of its closure: the batch could not run.
    func abandon(_ error: any Error) {
        fatalError("WriteJob.abandon must be overridden")
    }
}

/// A `WriteJob` for a closure returning `T` given `Session`'s writer, whose outcome goes to
/// `completion`.
final class TypedWriteJob<Session: StoreWriteSession, T: Sendable>: WriteJob, @unchecked Sendable {
    // @unchecked Sendable: see `WriteJob` (`result` is touched by one writer thread only).

    private let body: @Sendable (Session.Writer) throws -> T
    private let completion: @Sendable (Result<T, any Error>) -> Void
    /// The last run's result; nil until the closure ran.
    private var result: Result<T, any Error>?

    init(_ body: @escaping @Sendable (Session.Writer) throws -> T, completion: @escaping @Sendable (Result<T, any Error>) -> Void) {
        self.body = body
        self.completion = completion
    }

    override func perform(on session: any StoreWriteSession, translate: (any Error) -> any Error) -> Bool {
        // The engine gives each job the session of the store that made it (see `perform`).
        let writer = unsafeDowncast(session, to: Session.self).writer
        do {
            result = .success(try body(writer))
            return true
        } catch {
            result = .failure(translate(error))
            return false
        }
    }

    override func refuse(_ error: any Error) {
        result = .failure(error)
    }

    override func finish(commitError: (any Error)?) {
        guard let result else {
            completion(.failure(commitError ?? StoreError.failure("write: the batch ended before this write ran")))
            return
        }
        if let commitError, case .success = result {
            completion(.failure(commitError))
        } else {
            // A closure that threw keeps its own error: it explains the refusal, and its
            // changes were undone whatever became of the commit.
            completion(result)
        }
    }

    override func abandon(_ error: any Error) {
        completion(.failure(error))
    }
}
