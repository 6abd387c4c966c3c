import ParleyNet

/// One event loop's share of a messaging load: sends stamped messages from its senders at a
/// fixed rate (open loop, round-robin over the senders) and records every acknowledgement
/// and delivery that reaches the clients of its loop. Nothing per message is kept: the stamp
/// in the text and the ack's id carry the send time.
final class MessagingLoad: @unchecked Sendable {
    // Invariant for `@unchecked Sendable`: everything is touched only on `loop`.

    let loop: EventLoop
    /// Clients on this loop that send; every client on the loop receives.
    private let senders: [BenchConnection]
    private let size: Int
    /// Every how many sends of a connection one is a message action (0: none).
    private let actionEvery: Int
    private var step = 0
    private var sender: OpenLoopSender?
    private var stepStart: UInt64 = 0
    private var windowStart: UInt64 = 0
    private var windowEnd: UInt64 = 0
    private var result = MessagingResult()
    private var nextSender = 0

    init(loop: EventLoop, clients: [BenchConnection], senders: [BenchConnection], size: Int, actionEvery: Int = 0) {
        self.actionEvery = actionEvery
        precondition(size >= MessageStamp.headerSize, "messages carry a \(MessageStamp.headerSize)-byte stamp")
        self.loop = loop
        self.senders = senders
        self.size = size
        for client in clients {
            // Weak: deliveries that come in after the run (an overloaded server drains late)
            // must find nothing, not a freed load.
            client.onIncoming = { [weak self] incoming in self?.record(incoming) }
        }
    }

    /// Starts a step: `rate` messages per second from `start` for `warmup + duration`; only
    /// messages due after the warm-up are measured. Call on the loop.
    func startStep(_ id: Int, rate: Double, start: UInt64, warmup: Duration, duration: Duration) {
        step = id
        result = MessagingResult()
        stepStart = start
        windowStart = start &+ warmup.nanoseconds
        windowEnd = windowStart &+ duration.nanoseconds
        sender?.stop()
        sender = nil
        guard rate > 0, !senders.isEmpty else { return }
        let sender = OpenLoopSender(loop: loop, rate: rate, start: start, duration: warmup + duration) { [unowned self] _, due in
            self.send(due: due)
        }
        self.sender = sender
        sender.begin()
    }

    /// The results of the current step so far. Call on the loop.
    func snapshot() -> MessagingResult { result }

    private func send(due: UInt64) {
        for _ in 0..<senders.count {
            let client = senders[nextSender % senders.count]
            nextSender &+= 1
            let now = MonotonicClock.now()
            guard client.sendMeasured(now: now, step: step, size: size, actionEvery: actionEvery) else { continue }
            result.sent += 1
            if due >= windowStart && due < windowEnd {
                result.sentInWindow += 1
                result.sendLag.record(now &- due)
            }
            return
        }
        result.unsendable += 1
    }

    private func record(_ incoming: Incoming) {
        let now = MonotonicClock.now()
        switch incoming {
        case .delivery(let sentAt, let stamped):
            // A straggler from an earlier step was counted as lost there.
            guard stamped == step % 10_000 else { return }
            result.recordDelivery(sentAt: sentAt, now: now, window: windowStart..<windowEnd)
        case .ack(let sentAt):
            // Acks of sends from before this step began belong to an earlier one.
            guard sentAt >= stepStart else { return }
            result.recordAck(sentAt: sentAt, now: now, window: windowStart..<windowEnd)
        case .refused(let reason):
            result.refused += 1
            result.note("refused: \(reason)")
        case .malformed(let reason):
            result.malformed += 1
            result.note("malformed: \(reason)")
        case .reply, .ignored:
            break
        }
    }

}
