/// An HTTP/1.1 and WebSocket server on a `TCPServer`.
public final class HTTPServer: Sendable {
    /// Limits and policies of the server.
    public struct Configuration: Sendable {
        /// HTTP request limits (431/414/413 beyond them).
        public var limits: HTTPLimits
        /// The upload routes whose bodies go to disk as they arrive (nil: every body is
        /// read into memory under `limits.maxBodyBytes`).
        public var bodyStreaming: HTTPBodyStreaming?
        /// Connection options (timeouts, write bounds) and the connection ceiling.
        public var tcp: TCPServerOptions
        /// WebSocket frame limits, ping interval, close timeout.
        public var webSocket: WebSocketOptions
        /// Which browser origins may open WebSockets.
        public var originPolicy: WebSocketOriginPolicy
        /// How long a request's line and headers may take to arrive once its first byte has:
        /// a peer that sends a header byte now and then to hold the connection gets 408.
        public var headerTimeout: Duration = .seconds(10)
        /// The slowest a request body may arrive, in bytes a second averaged from the start
        /// of the body, judged once the body has taken `headerTimeout`; slower gets 408.
        public var minimumBodyBytesPerSecond = 1024
        /// How a request's client address is found (trusted reverse proxies).
        public var clientAddresses = ClientAddressResolver()
        /// The host names (without port, lowercased) requests may name in `Host`; nil takes
        /// any. Against DNS rebinding: a page of another site whose name was made to point at
        /// this server still sends its own name as `Host`. Requests without `Host` (no
        /// browser sends one without) pass.
        public var allowedHosts: Set<String>?
        /// The scheme pages reach this server by (`http`, or `https` with TLS), compared with
        /// a WebSocket's `Origin` under `.sameOrigin`; nil when it cannot be known here (a TLS
        /// terminator in front).
        public var originScheme: String? = "http"
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
        let shared = SharedHTTPServerConfiguration(configuration)
        tcp = try TCPServer(group: group, address: address, options: options) { connection in
            HTTPServerConnection(connection: connection, configuration: shared, responder: responder)
        }
    }

    /// What a plaintext HTTP request to the TLS port gets before the connection closes.
    static let useHTTPS: ByteChunk = {
        let body = "This port speaks HTTPS only: use an https:// (or wss://) URL.\n"
        return ByteChunk.of(string: "HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\n"
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
