#if canImport(ParleyNet)
import ParleyNet

/// One client WebSocket of `ParleyNetTransport`: ParleyNet's delegate callbacks turned into
/// an `AsyncStream`, and sends hopped onto the socket's loop.
final class ParleyNetSocket: WebSocketDelegate, TransportSocket, @unchecked Sendable {
    // Invariant for `@unchecked Sendable`: `socket`, `opening`, `openTimer` and `phase` are
    // read and written only on `loop` (callbacks arrive there; `send` and `close` hop there
    // with `loop.execute`). `inputs` and `continuation` are Sendable themselves.

    /// Where the socket is in its life.
    private enum Phase {
        case opening
        case open
        /// The opener gave up (timeout) before the handshake finished: close on arrival.
        case abandoned
        case closed
    }

    let loop: EventLoop
    let inputs: AsyncStream<TransportInput>
    private let continuation: AsyncStream<TransportInput>.Continuation
    private var socket: WebSocketConnection?
    private var opening: CheckedContinuation<Result<Void, ParleyError>, Never>?
    private var openTimer: ScheduledTimer?
    private var phase = Phase.opening

    init(loop: EventLoop) {
        self.loop = loop
        (inputs, continuation) = AsyncStream.makeStream(of: TransportInput.self)
    }

    /// Keeps the opener's continuation and gives up after `timeout`. On the loop.
    func startOpening(_ continuation: CheckedContinuation<Result<Void, ParleyError>, Never>, timeout: Duration) {
        opening = continuation
        openTimer = loop.schedule(after: timeout) { [weak self] in
            guard let self, self.phase == .opening else { return }
            self.phase = .abandoned
            self.finishOpening(.failure(.transport("no WebSocket within \(timeout.components.seconds) s")))
            self.continuation.finish()
        }
    }

    private func finishOpening(_ result: Result<Void, ParleyError>) {
        openTimer?.cancel()
        openTimer = nil
        opening?.resume(returning: result)
        opening = nil
    }

    // MARK: TransportSocket

    func send(text: String) {
        loop.execute { [self] in socket?.send(text: text) }
    }

    func close(code: Int) {
        loop.execute { [self] in
            socket?.close(code: WebSocketCloseCode(UInt16(clamping: code)), reason: "")
        }
    }

    // MARK: WebSocketDelegate

    func webSocketDidOpen(_ socket: WebSocketConnection) {
        guard phase == .opening else {
            socket.close(code: .goingAway, reason: "gave up waiting")
            return
        }
        phase = .open
        self.socket = socket
        finishOpening(.success(()))
    }

    func webSocket(_ socket: WebSocketConnection, didReceiveText text: String) {
        continuation.yield(.text(text))
    }

    func webSocketDidClose(_ socket: WebSocketConnection, code: WebSocketCloseCode, reason: String) {
        let wasOpen = phase == .open
        phase = .closed
        self.socket = nil
        if wasOpen { continuation.yield(.closed(code: Int(code.rawValue), reason: reason)) }
        continuation.finish()
    }

    func webSocketDidFailToConnect(reason: String) {
        guard phase == .opening else { return }
        phase = .closed
        finishOpening(.failure(.transport(reason)))
        continuation.finish()
    }
}
#endif
