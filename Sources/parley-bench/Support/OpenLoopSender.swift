import ParleyNet

/// Sends at a fixed rate whether or not replies come back (an open loop), on one event loop.
///
/// Message `i` is due at `start + i / rate`. Every tick sends whatever has fallen due, with
/// the time it was due, so the caller can tell how far behind the schedule ran. The
/// schedule depends on the clock alone: a slow server never slows the sending (the
/// "coordinated omission" of closed-loop load tools, which wait for each answer and so
/// send less exactly when the server is in trouble).
final class OpenLoopSender {
    /// Sends message `sequence`, due at `dueTime` (monotonic nanoseconds).
    typealias Send = (_ sequence: Int, _ dueTime: UInt64) -> Void

    private let loop: EventLoop
    private let rate: Double
    private let start: UInt64
    private let total: Int
    private let tick: Duration
    private let send: Send
    private var stopped = false
    /// Messages sent so far.
    private(set) var sent = 0

    /// A sender of `rate` messages per second for `duration` from `start` (monotonic
    /// nanoseconds), waking every `tick`. Create and use on `loop`.
    init(loop: EventLoop, rate: Double, start: UInt64, duration: Duration, tick: Duration = .milliseconds(1), send: @escaping Send) {
        precondition(rate > 0, "OpenLoopSender needs a positive rate")
        self.loop = loop
        self.rate = rate
        self.start = start
        self.tick = tick
        self.send = send
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        total = Int((seconds * rate).rounded(.down))
    }

    /// Starts the schedule. Call on the loop.
    func begin() {
        runTick()
    }

    /// Stops sending at the next tick.
    func stop() {
        stopped = true
    }

    /// Whether every message has been sent (or the sender was stopped).
    var finished: Bool { stopped || sent >= total }

    private func runTick() {
        guard !stopped else { return }
        let now = MonotonicClock.now()
        if now >= start {
            let elapsed = Double(now - start)
            let due = min(total, Int(elapsed * rate / 1e9) + 1)
            while sent < due {
                send(sent, start + UInt64(Double(sent) * 1e9 / rate))
                sent += 1
            }
        }
        guard sent < total else { return }
        loop.schedule(after: tick) { [weak self] in self?.runTick() }
    }
}
