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
        /// The `Strict-Transport-Security` value every response carries (nil: none); set it
        /// only when `tcp.tls` is on.
        public var strictTransportSecurity: String?

        public init(limits: HTTPLimits = HTTPLimits(), tcp: TCPServerOptions = TCPServerOptions(),
                    webSocket: WebSocketOptions = WebSocketOptions(), originPolicy: WebSocketOriginPolicy = .sameOrigin,
                    strictTransportSecurity: String? = nil) {
            self.strictTransportSecurity = strictTransportSecurity
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
        var options = configuration.tcp
        if options.tls != nil && options.plaintextReply == nil { options.plaintextReply = Self.useHTTPS }
        tcp = try TCPServer(group: group, address: address, options: options) { connection in
            HTTPServerConnection(connection: connection, configuration: configuration, responder: responder)
        }
    }

    /// What a plaintext HTTP request to the TLS port gets before the connection closes.
    static let useHTTPS: ByteChunk = {
        let body = "This port speaks HTTPS only: use an https:// (or wss://) URL.\n"
        return ByteChunk(string: "HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\n"
                         + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body)
    }()

    /// The bound address (with the real port when 0 was asked for).
    public var localAddress: SocketAddress { tcp.localAddress }

    /// Graceful shutdown: stop accepting, let responses finish, close WebSockets with 1001.
    @discardableResult
    public func shutdown(timeout: Duration = .seconds(5)) -> Int {
        tcp.shutdown(timeout: timeout)
    }
}
