import ParleyNet

/// Sends every message back as it came. Stateless, so one instance serves every socket on
/// every loop.
final class EchoSocket: WebSocketDelegate, Sendable {
    func webSocket(_ socket: WebSocketConnection, didReceiveText text: String) {
        socket.send(text: text)
    }

    func webSocket(_ socket: WebSocketConnection, didReceiveBinary bytes: [UInt8]) {
        socket.send(binary: bytes)
    }

    func webSocketDidClose(_ socket: WebSocketConnection, code: WebSocketCloseCode, reason: String) {}
}
