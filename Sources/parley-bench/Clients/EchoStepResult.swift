/// What one step of the echo load measured (on one loop, or merged over all of them).
struct EchoStepResult: Sendable {
    /// Round-trip latencies of the echoes of messages due inside the measured window.
    var latency = LatencyHistogram()
    /// Messages sent, in all and inside the measured window.
    var sent = 0, sentInWindow = 0
    /// Echoes received, in all and inside the measured window.
    var received = 0, receivedInWindow = 0
    /// Echoes whose content did not match what was sent.
    var badEchoes = 0
    /// Messages that could not be sent because their socket had closed.
    var unsendable = 0
    /// How far behind its schedule each measured message went out: a generator that keeps
    /// up stays within the 1–2 ms of its timer ticks.
    var sendLag = LatencyHistogram()

    /// Messages sent and not (yet) echoed.
    var outstanding: Int { sent - received - badEchoes }

    /// Adds another loop's results to these.
    mutating func merge(_ other: EchoStepResult) {
        latency.merge(other.latency)
        sent += other.sent
        sentInWindow += other.sentInWindow
        received += other.received
        receivedInWindow += other.receivedInWindow
        badEchoes += other.badEchoes
        unsendable += other.unsendable
        sendLag.merge(other.sendLag)
    }
}
