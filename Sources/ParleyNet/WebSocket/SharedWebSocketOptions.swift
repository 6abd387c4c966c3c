/// One copy of `WebSocketOptions` for every WebSocket a server upgrades: the options are the
/// same for all of them, and each connection holding its own copy cost 56 bytes a
/// connection (as `SharedConnectionOptions` does for the TCP options).
final class SharedWebSocketOptions: Sendable {
    let value: WebSocketOptions

    init(_ value: WebSocketOptions) {
        self.value = value
    }
}
