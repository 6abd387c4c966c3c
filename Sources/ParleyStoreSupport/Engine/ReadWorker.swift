/// The body of one reader thread: takes read jobs one at a time from the queue all readers
/// share, and runs each on this thread's own connection.
///
/// Not generic over the backend's connection type, for the reason `WriteJob` gives: the
/// connection is held as `AnyObject`, and each job (made by `ThreadedStore.read`, which knows
/// the type) casts it back.
final class ReadWorker: @unchecked Sendable {
    // @unchecked Sendable so that the thread can be handed it. Invariant: after `init`,
    // `connection` (not Sendable) is used only by this worker's thread, inside `run()`.

    /// A read as queued: it opens its own read transaction on the connection it is given.
    typealias Job = @Sendable (AnyObject) -> Void

    private let connection: AnyObject
    private let queue: JobQueue<Job>

    init(connection: AnyObject, queue: JobQueue<Job>) {
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
