import Glibc

/// Group commit for any `LogSink`: appenders on any threads add their records to the batch
/// being formed; while one batch is written and synced, the next one forms; the first
/// waiter to find no write in progress becomes the leader and writes the whole batch with
/// one sync. So under load there is one sync per batch, not per append, and at light load
/// an append waits for one sync only.
///
/// It also keeps each conversation's next seq (including records not yet durable), so both
/// engines refuse gaps the same way. After a failed write nothing more is accepted
/// (`LogError.failed`): the pages of a failed `fdatasync` may be gone, and only reopening
/// (recovery) knows what is on disk.
final class GroupCommit<Sink: LogSink>: @unchecked Sendable {
    // @unchecked Sendable: every `var` below is read and written only while `mutex` is held;
    // the mutex and condition live at fixed heap addresses from init to deinit. `sink` is
    // called by one thread at a time: the leader, which set `writing` under the mutex.

    private let sink: Sink
    private let options: MessageLogOptions
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let batchDone: UnsafeMutablePointer<pthread_cond_t>
    /// The batch being formed and its number; batches are numbered from 1.
    private var forming: [LogRecord] = []
    private var formingNumber: UInt64 = 1
    /// The highest batch number that is durable (or failed).
    private var finishedNumber: UInt64 = 0
    private var writing = false
    private var failure: LogError?
    private var isClosed = false
    /// The next seq of every conversation, counting records accepted but not yet durable.
    private var nextSeq: [UInt64: UInt64]
    private var counters = MessageLogStatistics()

    /// `lastSeqs`: each conversation's last durable seq when the log was opened.
    init(sink: Sink, lastSeqs: [UInt64: UInt64], options: MessageLogOptions) {
        self.sink = sink
        self.options = options
        nextSeq = lastSeqs.mapValues { $0 + 1 }
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        batchDone = .allocate(capacity: 1)
        batchDone.initialize(to: pthread_cond_t())
        pthread_cond_init(batchDone, nil)
    }

    deinit {
        pthread_cond_destroy(batchDone)
        batchDone.deinitialize(count: 1)
        batchDone.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    var statistics: MessageLogStatistics {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return counters
    }

    /// Adds `records` to the forming batch and returns once that batch is durable.
    func append(_ records: [LogRecord]) throws(LogError) {
        guard !records.isEmpty else { return }
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        if isClosed { throw .closed }
        if let failure { throw .failed("\(failure)") }
        // Check the whole call first, so a refused call adds nothing.
        var expected: [UInt64: UInt64] = [:]
        for record in records {
            guard record.payload.count <= options.maxPayloadBytes else {
                throw .payloadTooLarge(bytes: record.payload.count, limit: options.maxPayloadBytes)
            }
            let next = expected[record.conversation] ?? nextSeq[record.conversation] ?? (options.startsAnywhere ? record.seq : 1)
            guard record.seq == next else {
                throw .sequenceGap(conversation: record.conversation, expected: next, got: record.seq)
            }
            expected[record.conversation] = next + 1
        }
        for (conversation, next) in expected { nextSeq[conversation] = next }
        forming.append(contentsOf: records)
        let mine = formingNumber
        while finishedNumber < mine {
            if writing {
                pthread_cond_wait(batchDone, mutex)
                continue
            }
            // Lead: take everything formed so far (it includes this call's records).
            let batch = forming
            let number = formingNumber
            forming = []
            formingNumber += 1
            writing = true
            pthread_mutex_unlock(mutex)
            var outcome: LogError?
            do throws(LogError) { try sink.writeDurably(batch) } catch { outcome = error }
            pthread_mutex_lock(mutex)
            writing = false
            finishedNumber = number
            if let outcome {
                failure = failure ?? outcome
            } else {
                counters.records += batch.count
                counters.syncs += 1
            }
            pthread_cond_broadcast(batchDone)
        }
        if let failure { throw .failed("\(failure)") }
    }

    /// Refuses new appends and waits until no batch is being written.
    func close() {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        isClosed = true
        while writing { pthread_cond_wait(batchDone, mutex) }
    }

    /// Runs `body` while no batch is being written and none can start (a checkpoint).
    func exclusively<T>(_ body: () throws(LogError) -> T) throws(LogError) -> T {
        pthread_mutex_lock(mutex)
        while writing { pthread_cond_wait(batchDone, mutex) }
        writing = true
        pthread_mutex_unlock(mutex)
        defer {
            pthread_mutex_lock(mutex)
            writing = false
            pthread_cond_broadcast(batchDone)
            pthread_mutex_unlock(mutex)
        }
        return try body()
    }
}
