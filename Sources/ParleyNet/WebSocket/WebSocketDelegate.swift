/// Receives a WebSocket's messages. All calls come on the connection's event loop.
public protocol WebSocketDelegate: AnyObject {
    /// The handshake is done; messages may be sent.
    func webSocketDidOpen(_ socket: WebSocketConnection)
    /// A complete text message arrived (valid UTF-8).
    func webSocket(_ socket: WebSocketConnection, didReceiveText text: String)
    /// A complete text message arrived whole in one read (valid UTF-8), given in place: the
    /// bytes are valid only during the call. The default makes a `String` of them and calls
    /// `webSocket(_:didReceiveText:)`; a delegate that only scans its messages implements
    /// this and avoids the copy.
    func webSocket(_ socket: WebSocketConnection, didReceiveUTF8 bytes: UnsafeRawBufferPointer)
    /// A complete binary message arrived.
    func webSocket(_ socket: WebSocketConnection, didReceiveBinary bytes: [UInt8])
    /// The WebSocket is closed; called exactly once. `code` is the peer's close code, ours
    /// if we closed first, or 1006 when the connection dropped without a close handshake.
    func webSocketDidClose(_ socket: WebSocketConnection, code: WebSocketCloseCode, reason: String)
    /// A client connection failed before the WebSocket opened (connect or handshake).
    func webSocketDidFailToConnect(reason: String)
    /// The deadline set by `WebSocketConnection.setDelegateDeadline(after:)` has passed (it is
    /// cleared; set it again for another). Called only while the WebSocket is open.
    func webSocketDeadlinePassed(_ socket: WebSocketConnection)
}

extension WebSocketDelegate {
    public func webSocketDidFailToConnect(reason: String) {}
    public func webSocketDeadlinePassed(_ socket: WebSocketConnection) {}
    public func webSocketDidOpen(_ socket: WebSocketConnection) {}
    public func webSocket(_ socket: WebSocketConnection, didReceiveUTF8 bytes: UnsafeRawBufferPointer) {
        webSocket(socket, didReceiveText: String(decoding: bytes, as: UTF8.self))
    }
    public func webSocket(_ socket: WebSocketConnection, didReceiveBinary bytes: [UInt8]) {
        socket.close(code: .unsupportedData, reason: "binary messages are not accepted")
    }
}

/// Settings of one WebSocket connection.
public struct WebSocketOptions: Sendable {
    /// Frame and message size limits.
    public var limits: WebSocketLimits
    /// Send a ping after this long without input, to keep the path open and find dead peers
    /// (nil: never). The connection's idle timeout should be longer.
    public var pingInterval: Duration?
    /// How long to wait for the peer's close frame after sending ours.
    public var closeTimeout: Duration

    public init(limits: WebSocketLimits = WebSocketLimits(), pingInterval: Duration? = .seconds(30),
                closeTimeout: Duration = .seconds(5)) {
        self.limits = limits
        self.pingInterval = pingInterval
        self.closeTimeout = closeTimeout
    }
}
