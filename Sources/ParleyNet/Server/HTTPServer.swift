/// An HTTP/1.1 and WebSocket server on a `TCPServer`.
public final class HTTPServer: Sendable {
    /// Limits and policies of the server.
    public struct Configuration: Sendable {
        /// HTTP request limits (431/414/413 beyond them).
        public var limits: HTTPLimits
        /// Connection options (timeouts, write bounds) and the connection ceiling.
        public var tcp: TCPServerOptions
        /// WebSocket frame limits, ping interval, close timeout.
        public var webSocket: WebSocketOptions
        /// Which browser origins may open WebSockets.
        public var originPolicy: WebSocketOriginPolicy

        public init(limits: HTTPLimits = HTTPLimits(), tcp: TCPServerOptions = TCPServerOptions(),
                    webSocket: WebSocketOptions = WebSocketOptions(), originPolicy: WebSocketOriginPolicy = .sameOrigin) {
            self.limits = limits
            self.tcp = tcp
            self.webSocket = webSocket
            self.originPolicy = originPolicy
        }
    }

    /// The listening TCP server.
    public let tcp: TCPServer

    /// Starts serving `responder` on `address` across `group`'s loops.
    public init(group: EventLoopGroup, address: SocketAddress, configuration: Configuration = Configuration(),
                responder: HTTPResponder) throws(SystemError) {
        tcp = try TCPServer(group: group, address: address, options: configuration.tcp) { connection in
            HTTPServerConnection(connection: connection, configuration: configuration, responder: responder)
        }
    }

    /// The bound address (with the real port when 0 was asked for).
    public var localAddress: SocketAddress { tcp.localAddress }

    /// Graceful shutdown: stop accepting, let responses finish, close WebSockets with 1001.
    @discardableResult
    public func shutdown(timeout: Duration = .seconds(5)) -> Int {
        tcp.shutdown(timeout: timeout)
    }
}
