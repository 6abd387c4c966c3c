import ParleyNet
import Synchronization

/// The relay's state: which sockets subscribe to which topic. A publication is encoded
/// into one WebSocket frame once, and each subscriber's loop gets one task carrying all of its
/// subscribers, so the cost per delivery is a queued write.
///
/// Bare (no `durable` log), a publication is forwarded and acknowledged at once. Durable, it
/// is handed to the log (`DurableRelayLog`) and forwarded and acknowledged from there once
/// it is synced; its conversation is the pair of the sender's first topic and the topic it
/// publishes to (`conversation(between:and:)`), so both directions of a 1:1 chat share one.
final class RelayHub: WebSocketDelegate, Sendable {
    private struct Subscriber {
        let socket: WebSocketConnection
        let loop: EventLoop
    }

    private struct Tables {
        var byTopic: [Substring: [ObjectIdentifier: Subscriber]] = [:]
        var topicsOf: [ObjectIdentifier: [Substring]] = [:]
    }

    private let tables = Mutex(Tables())
    private let encoder = WebSocketFrameEncoder(role: .server)
    /// The durable relay's log; nil for the bare relay.
    let durable: DurableRelayLog?

    /// A bare relay.
    init() {
        durable = nil
    }

    /// A durable relay keeping its log as `settings` say (see `DurableRelayLog`).
    init(durable settings: DurableRelayLog.Settings) throws(BenchError) {
        durable = try DurableRelayLog(settings: settings, encoder: encoder)
    }

    /// The conversation of a publication from a socket subscribed to `one` to the topic
    /// `other`: the same for both directions (FNV-1a of the two topics in order).
    static func conversation(between one: Substring, and other: Substring) -> UInt64 {
        let (low, high) = one <= other ? (one, other) : (other, one)
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ byte: UInt8) { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        for byte in low.utf8 { mix(byte) }
        mix(0)
        for byte in high.utf8 { mix(byte) }
        return hash
    }

    /// Subscribers of `topic` now.
    func subscriberCount(_ topic: String) -> Int {
        tables.withLock { $0.byTopic[Substring(topic)]?.count ?? 0 }
    }

    func webSocket(_ socket: WebSocketConnection, didReceiveText text: String) {
        switch RelayFrames.command(text) {
        case .subscribe(let topic):
            let topic = Substring(String(topic))
            let key = ObjectIdentifier(socket)
            tables.withLock { tables in
                tables.byTopic[topic, default: [:]][key] = Subscriber(socket: socket, loop: socket.loop)
                tables.topicsOf[key, default: []].append(topic)
            }
            socket.send(text: "A 0")
        case .publish(let id, let topic, let payload):
            let sender = ObjectIdentifier(socket)
            let (targets, senderTopic) = tables.withLock { tables in
                ((tables.byTopic[topic] ?? [:]).filter { $0.key != sender }.map(\.value), tables.topicsOf[sender]?.first)
            }
            if let durable {
                guard payload.utf8.count <= durable.settings.maxPayloadBytes else {
                    socket.send(text: "E payload over \(durable.settings.maxPayloadBytes) bytes")
                    return
                }
                let publication = DurableRelayLog.Publication(
                    conversation: Self.conversation(between: senderTopic ?? "", and: topic), payload: String(payload), id: id,
                    sender: socket, targets: targets.map(\.socket))
                if !durable.submit(publication) { socket.send(text: "E the relay is stopping") }
                return
            }
            if !targets.isEmpty {
                let frame = encoder.text(String(payload))
                var byLoop: [ObjectIdentifier: (EventLoop, [WebSocketConnection])] = [:]
                for target in targets {
                    byLoop[ObjectIdentifier(target.loop), default: (target.loop, [])].1.append(target.socket)
                }
                for (loop, sockets) in byLoop.values {
                    if loop === socket.loop {
                        for target in sockets { target.send(encodedFrame: frame) }
                    } else {
                        let batch = RelayBatch(sockets)
                        loop.execute { for target in batch.sockets { target.send(encodedFrame: frame) } }
                    }
                }
            }
            socket.send(text: "A \(id)")
        case nil:
            socket.send(text: "E unreadable frame")
        }
    }

    func webSocket(_ socket: WebSocketConnection, didReceiveBinary bytes: [UInt8]) {
        socket.send(text: "E the relay takes text frames")
    }

    func webSocketDidClose(_ socket: WebSocketConnection, code: WebSocketCloseCode, reason: String) {
        let key = ObjectIdentifier(socket)
        tables.withLock { tables in
            for topic in tables.topicsOf.removeValue(forKey: key) ?? [] {
                tables.byTopic[topic]?.removeValue(forKey: key)
                if tables.byTopic[topic]?.isEmpty == true { tables.byTopic[topic] = nil }
            }
        }
    }
}

/// Sockets handed to another loop. `@unchecked Sendable`: each socket is used only on its own
/// loop, which is the loop the batch is sent to.
struct RelayBatch: @unchecked Sendable {
    let sockets: [WebSocketConnection]
    init(_ sockets: [WebSocketConnection]) { self.sockets = sockets }
}
