/// One copy of a server's `HTTPServer.Configuration` for all of its connections, and of the
/// WebSocket options for the WebSockets they upgrade to: each connection holding its own copy
/// cost a few hundred bytes while it spoke HTTP and 56 bytes for the life of its WebSocket.
final class SharedHTTPServerConfiguration: Sendable {
    let value: HTTPServer.Configuration
    /// `value.webSocket`, shared by every WebSocket of the server.
    let webSocket: SharedValue<WebSocketOptions>

    init(_ value: HTTPServer.Configuration) {
        self.value = value
        webSocket = SharedValue(value.webSocket)
    }
}
