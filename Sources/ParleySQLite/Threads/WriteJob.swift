import ParleyCore

/// One caller's `write`, waiting in the writer's queue, with its result type erased so that
/// jobs of every type share one queue and one batch.
///
/// It runs in two steps because the caller may learn its result only after the batch's
/// commit: `perform` runs the closure and returns the `finish` that, given the fate of the
/// commit, resumes the caller. `perform` may run more than once (see `GroupCommitWriter`):
/// only the last run's outcome reaches the caller.
struct WriteJob: Sendable {
    /// Resumes the caller: with its own result if the commit succeeded (`nil`), or with the
    /// commit's error if the closure had succeeded but its changes were not kept.
    typealias Finish = @Sendable (_ commitError: (any Error)?) -> Void

    /// What one run of the closure came to.
    struct Outcome {
        let finish: Finish
        /// Whether the closure threw (its own error goes to the caller, whatever the commit does).
        let failed: Bool
    }

    /// Runs on the writer thread, inside the batch's transaction; in a savepoint of its own
    /// when `isolated`, so that a failure undoes exactly this closure's changes.
    let perform: @Sendable (SQLiteStoreWriter, _ isolated: Bool) -> Outcome

    /// Fails the caller without running its closure (the batch could not even begin).
    let abandon: @Sendable (any Error) -> Void

    /// A job for `body` whose outcome goes to `completion`, called once on the writer thread
    /// (after the commit, or at once if the batch could not begin): it must not block or do
    /// much, since every other write waits for it. Hand the result to another thread there.
    init<T: Sendable>(_ body: @escaping @Sendable (StoreWriter) throws -> T,
                      completion: @escaping @Sendable (Result<T, any Error>) -> Void) {
        perform = { writer, isolated in
            let result = Result<T, any Error> {
                do {
                    return isolated ? try writer.connection.savepoint { try body(writer) } : try body(writer)
                } catch {
                    throw StoreError.translating(error, during: "write")
                }
            }
            let finish: Finish = { commitError in
                if let commitError, case .success = result {
                    completion(.failure(commitError))
                } else {
                    // A closure that threw keeps its own error: it explains the refusal, and
                    // its changes were undone whatever became of the commit.
                    completion(result)
                }
            }
            if case .failure = result { return Outcome(finish: finish, failed: true) }
            return Outcome(finish: finish, failed: false)
        }
        abandon = { error in completion(.failure(error)) }
    }
}
