import ParleyNet
import Synchronization

/// The bare relay's state: which sockets subscribe to which topic. A publication is encoded
/// into one WebSocket frame once, and each subscriber's loop gets one task carrying all of its
/// subscribers, so the cost per delivery is a queued write.
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
            let targets = tables.withLock { tables in
                (tables.byTopic[topic] ?? [:]).filter { $0.key != sender }.map(\.value)
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
