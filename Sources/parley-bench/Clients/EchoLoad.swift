import Glibc
import ParleyNet

/// One event loop's share of the echo load: sends timestamped messages over its loop's
/// sockets at a fixed rate and measures each echo's round trip.
///
/// A message is `size` bytes of text: the time it was sent (20 decimal digits of monotonic
/// nanoseconds), the step it belongs to, and padding. The echo carries its own timestamp
/// back, so nothing per message is kept here, and echoes of an earlier step that arrive
/// late are recognised and left out.
///
/// The stamp is the moment of sending, not the moment the schedule wanted: the sender
/// wakes on the event loop's millisecond timers, and stamping the scheduled time would add
/// that granularity (1–2 ms) to every round trip. How late the sender ran against its
/// schedule is measured separately (`sendLag`): the schedule never waits for echoes, so
/// only a saturated generator falls behind, and that column shows it.
final class EchoLoad: @unchecked Sendable {
    // Invariant for `@unchecked Sendable`: everything is touched only on `clients.loop`;
    // other threads reach it through `loop.execute`.

    /// The sockets this load uses.
    let clients: LoopClients
    private let size: Int
    private var payload: [UInt8]
    private var step = 0
    private var sender: OpenLoopSender?
    private var windowStart: UInt64 = 0
    private var windowEnd: UInt64 = 0
    private var result = EchoStepResult()
    private var nextSocket = 0

    /// Bytes before the padding: 20 digits, a space, 4 digits of step, a space.
    static let headerSize = 26

    init(clients: LoopClients, size: Int) {
        precondition(size >= Self.headerSize, "messages carry a \(Self.headerSize)-byte header")
        self.clients = clients
        self.size = size
        payload = [UInt8](repeating: UInt8(ascii: "x"), count: size)
    }

    /// Starts a step: `rate` messages per second from `start` for `warmup + duration`; only
    /// messages due after the warm-up are measured. Call on the loop.
    func startStep(_ id: Int, rate: Double, start: UInt64, warmup: Duration, duration: Duration) {
        step = id
        result = EchoStepResult()
        windowStart = start &+ warmup.nanoseconds
        windowEnd = windowStart &+ duration.nanoseconds
        clients.onText = { [unowned self] _, text in self.received(text) }
        sender?.stop()
        guard rate > 0 else { return }
        let sender = OpenLoopSender(loop: clients.loop, rate: rate, start: start, duration: warmup + duration) { [unowned self] _, due in
            self.send(due: due, now: MonotonicClock.now())
        }
        self.sender = sender
        sender.begin()
    }

    /// The results of the current step so far. Call on the loop.
    func snapshot() -> EchoStepResult {
        result
    }

    private func send(due: UInt64, now: UInt64) {
        let sockets = clients.sockets
        // Round-robin over the open sockets; the message is counted as unsendable only when
        // none is left open.
        for _ in 0..<max(1, sockets.count) {
            guard !sockets.isEmpty else { break }
            let socket = sockets[nextSocket % sockets.count]
            nextSocket &+= 1
            guard socket.isOpen else { continue }
            writeHeader(sentAt: now)
            socket.send(text: String(decoding: payload, as: UTF8.self))
            result.sent += 1
            if due >= windowStart && due < windowEnd {
                result.sentInWindow += 1
                result.sendLag.record(now &- due)
            }
            return
        }
        result.unsendable += 1
    }

    private func writeHeader(sentAt time: UInt64) {
        var value = time
        for index in stride(from: 19, through: 0, by: -1) {
            payload[index] = UInt8(ascii: "0") + UInt8(value % 10)
            value /= 10
        }
        payload[20] = UInt8(ascii: " ")
        var stepValue = step % 10_000
        for index in stride(from: 24, through: 21, by: -1) {
            payload[index] = UInt8(ascii: "0") + UInt8(stepValue % 10)
            stepValue /= 10
        }
        payload[25] = UInt8(ascii: " ")
    }

    private func received(_ text: String) {
        let now = MonotonicClock.now()
        var text = text
        let parsed: (sentAt: UInt64, step: Int)? = text.withUTF8 { bytes in
            guard bytes.count == size, bytes[20] == UInt8(ascii: " "), bytes[25] == UInt8(ascii: " ") else { return nil }
            var sentAt: UInt64 = 0
            for index in 0..<20 {
                let digit = bytes[index] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                sentAt = sentAt &* 10 &+ UInt64(digit)
            }
            var stepValue = 0
            for index in 21..<25 {
                let digit = bytes[index] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                stepValue = stepValue * 10 + Int(digit)
            }
            return (sentAt, stepValue)
        }
        guard let parsed else {
            result.badEchoes += 1
            return
        }
        // A straggler from an earlier step was already counted as lost there.
        guard parsed.step == step % 10_000 else { return }
        result.received += 1
        if now >= windowStart && now < windowEnd { result.receivedInWindow += 1 }
        if parsed.sentAt >= windowStart && parsed.sentAt < windowEnd {
            result.latency.record(now &- parsed.sentAt)
        }
    }
}
