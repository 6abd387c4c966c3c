import ParleyCore
import ParleyLog
import ParleyStoreSupport
import ParleySync
import Synchronization

/// The `message-log` thread of `--message-log-apply later`. The writer commits a batch, hands
/// the batch's new message rows (in seq order) and the answers to every caller of the batch
/// to this thread as one entry of a FIFO queue (`handOff`), and takes its next batch at once.
/// The thread takes every entry queued, appends all their rows to the log with one write and
/// one `fdatasync` (group commit across batches), counts them synced (`UnappliedCount`: only
/// now are they acknowledged) and then runs the answers in queue order. So nobody hears back
/// before every row handed off before its answer is synced, whatever they wrote: a
/// read-your-writes caller, a marker move or a refusal never reveals a send that a crash
/// could still lose.
///
/// **A failed sync** (the page cache may have dropped the pages: retrying cannot be trusted)
/// fails every answer held and every later one with `StoreError.failure("message log: sync
/// failed")`, appends nothing more, and `hasFailed` makes the store refuse every later write
/// until it is opened again (the open replays what the log has). It is reported once.
///
/// **Lifecycle.** The thread starts with the store. `close()`, called once the writer has
/// stopped (nothing more is handed off), lets it sync and answer every entry queued and joins
/// it; deinit does the same as a fallback. The thread holds the queue and its `Worker`, never
/// this object.
final class MessageLogSyncer: Sendable {
    /// Runs the real append and sync it is given: a seam for tests, which may hold it back or
    /// fail it; nil in the server.
    typealias SyncSeam = @Sendable (_ sync: () throws -> Void) throws -> Void

    /// One hand-off of the writer.
    struct Entry: Sendable {
        /// Rows committed since the last hand-off, in commit (seq) order.
        var rows: [LoggedMessage]
        /// Answers the callers of the writes decided since the last hand-off (given nil, or
        /// the failure every one of them gets); nil: no caller.
        var answers: (@Sendable ((any Error)?) -> Void)?
    }

    /// As many entries as the thread takes at once: all of them (the writer hands off one
    /// per batch, so fewer than this ever wait; finite so that the queue's index arithmetic
    /// cannot overflow).
    private static let everything = 1 << 30

    /// What every answer gets once a sync failed.
    static let failure = StoreError.failure("message log: sync failed")

    private let queue: JobQueue<Entry>
    private let worker: Worker
    /// The thread until `close()`.
    private let thread: PThreadMutex<StoreThread?>

    /// Starts the thread. `counts`: where the rows synced are counted; `report`: told once,
    /// on the thread, when a sync fails.
    init(log: SegmentLog, counts: UnappliedCount, seam: SyncSeam? = nil,
         report: @escaping @Sendable (MessageLogApplyReport) -> Void) throws {
        let queue = JobQueue<Entry>()
        let worker = Worker(log: log, counts: counts, seam: seam, report: report)
        self.queue = queue
        self.worker = worker
        let started = try StoreThread.start(name: "message-log") {
            while let entries = queue.take(upTo: Self.everything) {
                worker.sync(entries)
            }
        }
        thread = PThreadMutex(started)
    }

    deinit {
        close()
    }

    /// Whether a sync failed: the store refuses every write from then on.
    var hasFailed: Bool { worker.hasFailed }

    /// Queues `entry` behind every earlier one. After `close()` (which the store does only
    /// once its writer stopped) nothing is synced any more: the answers are failed at once.
    func handOff(_ entry: Entry) {
        if !queue.enqueue(entry) {
            entry.answers?(StoreError.failure("write: the store is closed"))
        }
    }

    /// Syncs and answers every entry queued, then stops the thread. Later calls return at once.
    func close() {
        queue.close()
        guard let thread = thread.withLock({ thread in defer { thread = nil }; return thread }) else { return }
        if thread.isCurrent {
            // The last reference went away in an answer run on the thread itself: it ends
            // on its own once the queue is drained.
            thread.detach()
        } else {
            thread.join()
        }
    }

    /// The thread's side: the log, the counts and the failure.
    private final class Worker: Sendable {
        private let log: SegmentLog
        private let counts: UnappliedCount
        private let seam: SyncSeam?
        private let report: @Sendable (MessageLogApplyReport) -> Void
        private let failed = Atomic<Bool>(false)

        init(log: SegmentLog, counts: UnappliedCount, seam: SyncSeam?, report: @escaping @Sendable (MessageLogApplyReport) -> Void) {
            self.log = log
            self.counts = counts
            self.seam = seam
            self.report = report
        }

        var hasFailed: Bool { failed.load(ordering: .acquiring) }

        /// Appends the rows of `entries` with one sync, counts them synced, then answers in
        /// order (every one failed if the sync failed, now or before).
        func sync(_ entries: [Entry]) {
            var failure: (any Error)? = hasFailed ? MessageLogSyncer.failure : nil
            let rows = entries.reduce(0) { $0 + $1.rows.count }
            if failure == nil && rows > 0 {
                var records: [LogRecord] = []
                records.reserveCapacity(rows)
                for entry in entries {
                    for row in entry.rows { records.append(row.record) }
                }
                do {
                    let append = { [log] in try log.append(records) }
                    if let seam { try seam(append) } else { try append() }
                    counts.addSynced(rows)
                } catch {
                    failed.store(true, ordering: .releasing)
                    failure = MessageLogSyncer.failure
                    report(.syncFailed(reason: String(describing: error), failedBatches: entries.count { $0.answers != nil }))
                }
            }
            for entry in entries { entry.answers?(failure) }
        }
    }
}
