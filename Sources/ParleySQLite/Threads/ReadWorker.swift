import ParleyCore
import ParleySQL
import ParleyStoreSupport

/// The body of one reader thread: takes read jobs one at a time from the queue all readers
/// share, and runs each on this thread's own read-only connection. WAL lets every reader run
/// beside the writer, each on the snapshot of the last commit when its read began.
final class ReadWorker: Sendable {
    // Sendable so that the thread can be handed it. Invariant: after `init`, `connection`
    // is used only by this worker's thread, inside `run()`.

    /// A read as queued: it opens its own read transaction on the connection it is given.
    typealias Job = @Sendable (SQLiteConnection) -> Void

    private let connection: SQLiteConnection
    private let queue: JobQueue<Job>

    init(connection: SQLiteConnection, queue: JobQueue<Job>) {
        self.connection = connection
        self.queue = queue
    }

    /// Serves reads until the queue is closed and drained.
    func run() {
        // One job per take, so that a long read does not hold others back while another
        // reader is idle.
        while let jobs = queue.take(upTo: 1) {
            for job in jobs { job(connection) }
        }
    }
}
