import ParleyCore

/// One caller's `write`, waiting in the writers' queue, with its result type erased so that
/// jobs of every type share one queue and one batch.
///
/// It runs in two steps because the caller may learn its result only after the batch's
/// commit: `perform` runs the closure and returns whether it succeeded and the `finish` that,
/// given the fate of the commit, resumes the caller. `perform` may run more than once when
/// the batch is retried after a deadlock; only the last run's `finish` is ever called.
struct PostgresWriteJob: Sendable {
    /// Resumes the caller: with its own result if the commit succeeded (`nil`), or with the
    /// commit's error if the closure had succeeded but its changes were not kept.
    typealias Finish = @Sendable (_ commitError: (any Error)?) -> Void

    /// Runs on a writer thread, inside the batch's transaction.
    let perform: @Sendable (PostgresStoreWriter) -> (succeeded: Bool, finish: Finish)

    /// Fails the caller without running its closure (the batch could not even begin).
    let abandon: @Sendable (any Error) -> Void

    /// A job for `body` whose outcome goes to `continuation`.
    init<T: Sendable>(_ body: @escaping @Sendable (StoreWriter) throws -> T,
                      continuation: CheckedContinuation<T, any Error>) {
        perform = { writer in
            let result = Result<T, any Error> {
                do {
                    return try body(writer)
                } catch {
                    throw StoreError.translating(error, during: "write")
                }
            }
            let succeeded = if case .success = result { true } else { false }
            return (succeeded, { commitError in
                if let commitError, case .success = result {
                    continuation.resume(throwing: commitError)
                } else {
                    // A closure that threw keeps its own error: it explains the refusal, and
                    // its changes were undone whatever became of the commit.
                    continuation.resume(with: result)
                }
            })
        }
        abandon = { error in continuation.resume(throwing: error) }
    }
}
