import Glibc
import ParleyNet

/// One measured step of a messaging scenario as the tables show it.
struct MessagingStep {
    /// The target rate, messages sent per second over all senders.
    let rate: Double
    let result: MessagingResult
    /// Deliveries each message should make (1 for a pair, members − 1 for a group).
    let fanout: Int
    /// Whether the server acknowledges sends (Parley and the relay; NATS does not).
    let acknowledged: Bool
    let duration: Double
    /// Connections that closed during the step, and connect failures counted with the first step.
    let closes: Int
    let serverCPU: Double?
    let benchCPU: Double
    /// The server's CPU seconds over the whole step (nil without its pid).
    var serverCPUSeconds: Double?
    /// Whether the step held under the run's bound (set once measured; see `held(p99Bound:)`).
    var held = false

    var deliveriesPerSecond: Double { Double(result.deliveredInWindow) / duration }
    var acksPerSecond: Double { Double(result.ackedInWindow) / duration }
    var lostDeliveries: Int { max(0, result.sent * fanout - result.delivered) }
    var missingAcks: Int { acknowledged ? max(0, result.sent - result.acked - result.refused) : 0 }
    /// Every error: lost deliveries, missing acks, refusals, unreadable frames, unsendable
    /// messages and unexpected closes.
    var errors: Int { lostDeliveries + missingAcks + result.refused + result.malformed + result.unsendable + closes }
    var p99: UInt64 { result.deliveryLatency.value(atQuantile: 0.99) }
    /// Server CPU time per message sent, in microseconds: the server's CPU over the whole
    /// step (warm-up, window and drain) over every message of the step (nil without the
    /// server's pid or with nothing sent).
    var serverMicrosecondsPerMessage: Double? {
        guard let serverCPUSeconds, result.sent > 0 else { return nil }
        return serverCPUSeconds * 1e6 / Double(result.sent)
    }

    /// Held: p99 delivery latency within `bound`, ≥ 95 % of the expected deliveries inside
    /// the window, and no errors.
    func held(p99Bound bound: UInt64) -> Bool {
        p99 <= bound && deliveriesPerSecond >= rate * Double(fanout) * 0.95 && errors == 0
    }

    static let headers = ["rate", "sent/s", "acks/s", "deliveries/s", "p50", "p90", "p99", "p99.9", "max",
                          "ack p50", "ack p99", "errors", "send lag p99", "server CPU", "bench CPU"]

    var cells: [String] {
        let latency = result.deliveryLatency
        return [Format.rate(rate), Format.rate(Double(result.sentInWindow) / duration),
                acknowledged ? Format.rate(acksPerSecond) : "—", Format.rate(deliveriesPerSecond),
                Format.latency(nanoseconds: latency.value(atQuantile: 0.5)),
                Format.latency(nanoseconds: latency.value(atQuantile: 0.9)),
                Format.latency(nanoseconds: p99),
                Format.latency(nanoseconds: latency.value(atQuantile: 0.999)),
                Format.latency(nanoseconds: latency.max),
                acknowledged ? Format.latency(nanoseconds: result.ackLatency.value(atQuantile: 0.5)) : "—",
                acknowledged ? Format.latency(nanoseconds: result.ackLatency.value(atQuantile: 0.99)) : "—",
                Format.count(errors),
                Format.latency(nanoseconds: result.sendLag.value(atQuantile: 0.99)),
                serverCPU.map(Format.percent) ?? "", Format.percent(benchCPU)]
    }

    var summary: String {
        "rate \(Format.rate(rate))/s → \(Format.rate(deliveriesPerSecond)) deliveries/s, p99 \(Format.latency(nanoseconds: p99))"
            + (acknowledged ? ", ack p99 \(Format.latency(nanoseconds: result.ackLatency.value(atQuantile: 0.99)))" : "")
            + ", errors \(errors) (lost \(lostDeliveries), no ack \(missingAcks), refused \(result.refused), bad \(result.malformed), "
            + "unsendable \(result.unsendable), closed \(closes))"
    }
}
