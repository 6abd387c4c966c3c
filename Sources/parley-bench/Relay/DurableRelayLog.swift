import ParleyLog
import ParleyNet
import ParleyStoreSupport
import ParleySync

/// The durable relay's storage (`relay-server --durable DIR`): every publication is appended
/// to a `SegmentLog` — its conversation (the pair of topics, see `RelayHub`) at that
/// conversation's next seq — and only once the batch holding it is synced is it acknowledged
/// to the sender and forwarded to the subscribers.
///
/// The event loops never wait for the disk: they queue publications (`submit`); one thread
/// of the log's own takes whatever queued meanwhile, appends it with one `fdatasync` (group
/// commit), and hands each event loop all of that batch's frames for its sockets in one task.
/// This is the shape of parley serve's writer, without JSON, permissions or SQL: what a
/// durable 1:1 message costs on this machine at the least.
final class DurableRelayLog: Sendable {
    /// How the log is kept.
    struct Settings: Sendable {
        /// The directory of the segment files (created if need be; an existing log is
        /// continued).
        var directory: String
        /// A new segment file starts when the current one would pass this size
        /// (`--durable-segment-bytes`).
        var segmentBytes: Int = MessageLogOptions().segmentBytes
        /// The most publications one batch (one sync) takes; more wait for the next
        /// (`--durable-batch`).
        var batchLimit: Int = 4096
        /// The largest payload stored, in bytes: the relay's own WebSocket message limit, so
        /// every publication the relay reads can be stored.
        var maxPayloadBytes: Int = WebSocketLimits().maxMessageSize
    }

    /// One publication waiting for its batch: where it goes in the log and whom to tell.
    struct Publication: @unchecked Sendable {
        // @unchecked Sendable: the sockets are only used on their own loops, which is
        // where `DurableRelayLog` hands their frames.
        var conversation: UInt64
        var payload: String
        var id: Substring
        var sender: WebSocketConnection
        var targets: [WebSocketConnection]
    }

    /// The log, open; its records are readable while the relay runs.
    let log: SegmentLog
    let settings: Settings
    private let queue = JobQueue<Publication>()
    private let thread: StoreThread
    private let closed = PThreadMutex(false)

    /// Opens (or continues) the log in `settings.directory` and starts its thread.
    init(settings: Settings, encoder: WebSocketFrameEncoder) throws(BenchError) {
        self.settings = settings
        let options = MessageLogOptions(maxPayloadBytes: settings.maxPayloadBytes, segmentBytes: settings.segmentBytes)
        do {
            log = try SegmentLog(directory: settings.directory, options: options)
        } catch {
            throw .system("cannot open the durable relay's log in \(settings.directory): \(error)")
        }
        let (queue, log, batchLimit) = (queue, log, settings.batchLimit)
        do {
            thread = try StoreThread.start(name: "relay-log") {
                Self.writeBatches(from: queue, to: log, batchLimit: batchLimit, encoder: encoder)
            }
        } catch {
            log.close()
            throw .system("cannot start the durable relay's log thread: \(error)")
        }
    }

    deinit {
        close()
    }

    /// Queues `publication` for the next batch; false once the log is closed.
    func submit(_ publication: Publication) -> Bool {
        queue.enqueue(publication)
    }

    /// Lets the queued publications be written, then stops the thread and closes the log.
    func close() {
        let first = closed.withLock { closed in
            defer { closed = true }
            return !closed
        }
        guard first else { return }
        queue.close()
        if !thread.isCurrent { thread.join() }
        log.close()
    }

    /// The log thread: one append (one sync) per batch, then one task per event loop with
    /// the batch's acks and deliveries for that loop's sockets, in publication order.
    private static func writeBatches(from queue: JobQueue<Publication>, to log: SegmentLog, batchLimit: Int,
                                     encoder: WebSocketFrameEncoder) {
        var nextSeq: [UInt64: UInt64] = [:]
        while let batch = queue.take(upTo: batchLimit) {
            var records: [LogRecord] = []
            records.reserveCapacity(batch.count)
            var failure: LogError?
            do throws(LogError) {
                for publication in batch {
                    var seq = nextSeq[publication.conversation] ?? 0
                    if seq == 0 { seq = try log.lastSeq(of: publication.conversation) + 1 }
                    nextSeq[publication.conversation] = seq + 1
                    records.append(LogRecord(conversation: publication.conversation, seq: seq, payload: Array(publication.payload.utf8)))
                }
                try log.append(records)
            } catch {
                failure = error
            }
            var byLoop: [ObjectIdentifier: LoopFrames] = [:]
            func send(_ frame: ByteChunk, to socket: WebSocketConnection) {
                byLoop[ObjectIdentifier(socket.loop), default: LoopFrames(loop: socket.loop)].frames.append((socket, frame))
            }
            for publication in batch {
                if let failure {
                    send(encoder.text("E not stored: \(failure)"), to: publication.sender)
                    continue
                }
                if !publication.targets.isEmpty {
                    let frame = encoder.text(publication.payload)
                    for target in publication.targets { send(frame, to: target) }
                }
                send(encoder.text("A \(publication.id)"), to: publication.sender)
            }
            for work in byLoop.values {
                work.loop.execute { for (socket, frame) in work.frames { socket.send(encodedFrame: frame) } }
            }
        }
    }
}

/// One event loop's share of a batch: frames for its sockets, in order.
/// `@unchecked Sendable`: the sockets are used only on `loop`, which the share is sent to.
private struct LoopFrames: @unchecked Sendable {
    let loop: EventLoop
    var frames: [(WebSocketConnection, ByteChunk)] = []
}
