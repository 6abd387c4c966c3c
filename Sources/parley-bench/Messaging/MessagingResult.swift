/// What one step of a messaging load measured (on one loop, or merged over all of them).
struct MessagingResult: Sendable {
    /// Send → the recipient's event (Parley `message.new`, a relayed payload, a NATS `MSG`),
    /// for messages sent inside the measured window.
    var deliveryLatency = LatencyHistogram()
    /// Send → the sender's acknowledgement (Parley: stored durably), same window.
    var ackLatency = LatencyHistogram()
    /// How far behind its schedule each measured message went out.
    var sendLag = LatencyHistogram()
    var sent = 0, sentInWindow = 0
    var acked = 0, ackedInWindow = 0
    var delivered = 0, deliveredInWindow = 0
    /// Sends the server refused (an error response), frames nobody could read, and messages
    /// with no open socket to go out on.
    var refused = 0, malformed = 0, unsendable = 0
    /// Why sends were refused or frames unreadable.
    var reasons: [String: Int] = [:]

    mutating func merge(_ other: MessagingResult) {
        deliveryLatency.merge(other.deliveryLatency)
        ackLatency.merge(other.ackLatency)
        sendLag.merge(other.sendLag)
        sent += other.sent
        sentInWindow += other.sentInWindow
        acked += other.acked
        ackedInWindow += other.ackedInWindow
        delivered += other.delivered
        deliveredInWindow += other.deliveredInWindow
        refused += other.refused
        malformed += other.malformed
        unsendable += other.unsendable
        for (reason, count) in other.reasons { reasons[reason, default: 0] += count }
    }

    /// Counts a delivery that arrived at `now` of a message sent at `sentAt`; the latency
    /// counts if it was sent inside `window`. One call per delivery, so that the load's hot
    /// path touches its result once.
    mutating func recordDelivery(sentAt: UInt64, now: UInt64, window: Range<UInt64>) {
        Self.record(sentAt: sentAt, now: now, window: window, count: &delivered, inWindow: &deliveredInWindow,
                    latency: &deliveryLatency)
    }

    /// Counts an acknowledgement that arrived at `now` of a send made at `sentAt`.
    mutating func recordAck(sentAt: UInt64, now: UInt64, window: Range<UInt64>) {
        Self.record(sentAt: sentAt, now: now, window: window, count: &acked, inWindow: &ackedInWindow, latency: &ackLatency)
    }

    /// One arrival: always counted, counted in the window if it arrived inside it, and its
    /// latency measured if it was sent inside it.
    private static func record(sentAt: UInt64, now: UInt64, window: Range<UInt64>,
                               count: inout Int, inWindow: inout Int, latency: inout LatencyHistogram) {
        count += 1
        if window.contains(now) { inWindow += 1 }
        if window.contains(sentAt) { latency.record(now &- sentAt) }
    }

    mutating func note(_ reason: String) {
        if reasons[reason] == nil && reasons.count >= 32 {
            reasons["other", default: 0] += 1
        } else {
            reasons[reason, default: 0] += 1
        }
    }
}
