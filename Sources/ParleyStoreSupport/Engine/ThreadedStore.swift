package import ParleyCore
import ParleySync

/// The store engine both stores run on: the job queues, one or more writer threads with
/// group commit (`GroupCommitWriter`), reader threads, and the lifecycle. A backend
/// (`StoreBackend`) supplies its connections, transaction statements, savepoint policy,
/// retry rule and SQL; `SQLiteStore` and `PostgresStore` are each a backend and this.
///
/// **Threads.** No store work runs on the caller's thread, so event loops and the async
/// runtime never block on the database. Each writer thread has its own connection and serves
/// the one write queue in batches; each reader thread has its own connection and serves the
/// one read queue, a read at a time. Idle threads sleep.
///
/// **Lifecycle.** Running from `init` until `close()`, which refuses new work (with the
/// errors `read: the store is closed` and `write: the store is closed`), lets every queued
/// read and write finish, and stops the threads: readers first, then the writers, so a
/// writer's connection is the last one closed (SQLite's last connection checkpoints its WAL).
/// The threads hold the queues and their connections, never the engine, so a store dropped
/// without `close()` is still freed, and its deinit does the same as `close()` (if the last
/// reference goes away on one of the store's own threads, that thread is left to end on its
/// own rather than joined by itself).
package final class ThreadedStore<Backend: StoreBackend>: Sendable {
    /// The store's threads while it runs.
    private enum Lifecycle: Sendable {
        case running(readers: [StoreThread], writers: [StoreThread])
        case closed
    }

    private let backend: Backend
    private let writeQueue: JobQueue<WriteJob>
    private let readQueue: JobQueue<ReadWorker.Job>
    private let commits: CommitCounter
    private let lifecycle: PThreadMutex<Lifecycle>

    /// Starts one writer thread per session and one reader thread per connection, which from
    /// now on belong to those threads.
    ///
    /// - Parameter batchLimit: most writes committed in one transaction.
    package init(backend: Backend, writers: [Backend.WriteSession], readers: [Backend.ReadConnection],
                 batchLimit: Int) throws(StoreError) {
        guard !writers.isEmpty, !readers.isEmpty else {
            throw StoreError.failure("a store needs at least one writer and one reader connection")
        }
        let writeQueue = JobQueue<WriteJob>()
        let readQueue = JobQueue<ReadWorker.Job>()
        let commits = CommitCounter()
        var writerThreads: [StoreThread] = []
        var readerThreads: [StoreThread] = []
        do {
            for (index, session) in writers.enumerated() {
                let writer = GroupCommitWriter(session: session, savepoints: backend.savepoints, retryRule: backend.retryRule,
                                               queue: writeQueue, commits: commits, batchLimit: batchLimit)
                let name = writers.count == 1 ? "\(backend.threadNamePrefix)-w" : "\(backend.threadNamePrefix)-w\(index)"
                writerThreads.append(try StoreThread.start(name: name) { writer.run() })
            }
            for (index, connection) in readers.enumerated() {
                let worker = ReadWorker(connection: connection, queue: readQueue)
                readerThreads.append(try StoreThread.start(name: "\(backend.threadNamePrefix)-r\(index)") { worker.run() })
            }
        } catch {
            writeQueue.close()
            readQueue.close()
            for thread in readerThreads + writerThreads { thread.join() }
            throw error
        }
        self.backend = backend
        self.writeQueue = writeQueue
        self.readQueue = readQueue
        self.commits = commits
        lifecycle = PThreadMutex(.running(readers: readerThreads, writers: writerThreads))
    }

    deinit {
        if case .running(let readers, let writers) = lifecycle.withLock({ $0 }) {
            shutDown(readers: readers, writers: writers)
        }
    }

    /// Runs `body` on a reader thread, in the backend's read transaction; resumes on the
    /// caller's executor.
    package nonisolated(nonsending) func read<T: Sendable>(_ body: @escaping @Sendable (Backend.Reader) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let backend = backend
            let accepted = readQueue.enqueue { connection in
                // Every reader of this store holds one of its backend's connections.
                let connection = unsafeDowncast(connection, to: Backend.ReadConnection.self)
                continuation.resume(with: Result { try backend.read(on: connection, body) })
            }
            if !accepted {
                continuation.resume(throwing: StoreError.failure("read: the store is closed"))
            }
        }
    }

    /// Runs `body` on a writer thread in the next batch's transaction and returns once the
    /// batch is committed (see `GroupCommitWriter` for what a failure undoes); resumes on the
    /// caller's executor (a session actor's loop: one job queued there, no hop before).
    package nonisolated(nonsending) func write<T: Sendable>(_ body: @escaping @Sendable (Backend.Writer) throws -> T) async throws -> T {
        // Unchecked: the job hands its outcome over exactly once (`TypedWriteJob.finish` or
        // `abandon`, or the refusal of a closed store below), which is what the checked
        // continuation's extra object per write would verify again on the 1:1 hot path.
        try await withUnsafeThrowingContinuation { continuation in
            write(body) { continuation.resume(with: $0) }
        }
    }

    /// `write` for callers that are not tasks (an event loop): the same batch, commit and
    /// outcome, without a task or a continuation, and one allocation of its own (the job).
    /// `completion` runs on the writer thread after the commit (or at once, if the store is
    /// closed), so it must only hand the outcome on: every other write waits while it runs.
    package func write<T: Sendable>(_ body: @escaping @Sendable (Backend.Writer) throws -> T,
                                    completion: @escaping @Sendable (Result<T, any Error>) -> Void) {
        if !writeQueue.enqueue(TypedWriteJob<Backend.WriteSession, T>(body, completion: completion)) {
            completion(.failure(StoreError.failure("write: the store is closed")))
        }
    }

    /// Refuses new work, lets queued reads and writes finish and stops the threads. Blocks
    /// until then, so call it at shutdown, not on an event loop. Later calls (and concurrent
    /// ones) return at once.
    package func close() {
        let threads = lifecycle.withLock { state -> (readers: [StoreThread], writers: [StoreThread])? in
            guard case .running(let readers, let writers) = state else { return nil }
            state = .closed
            return (readers, writers)
        }
        if let threads {
            shutDown(readers: threads.readers, writers: threads.writers)
        }
    }

    private func shutDown(readers: [StoreThread], writers: [StoreThread]) {
        readQueue.close()
        writeQueue.close()
        for thread in readers + writers {
            if thread.isCurrent {
                thread.detach()
            } else {
                thread.join()
            }
        }
    }

    /// Transactions committed since the store opened (for tests and metrics).
    package var commitCount: Int { commits.count }

    /// Writes queued and not yet taken by a writer (for tests; stale as soon as it returns).
    package var queuedWriteCount: Int { writeQueue.count }
}
