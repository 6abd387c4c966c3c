public import Foundation

extension ParleyClient {
    /// How a client reaches its server and keeps its data.
    public struct Configuration: Sendable {
        /// The server's base URL, e.g. `http://127.0.0.1:8080`. The WebSocket is `/v1/ws` on
        /// the same host (`ws://` for `http://`, `wss://` for `https://`).
        public var server: URL
        /// The SQLite file for the cache and the outbox; nil keeps both in memory (nothing
        /// survives a restart, which suits tests and previews).
        public var databasePath: String?
        /// How WebSockets are opened; the platform's default unless replaced.
        public var transport: any WebSocketTransport
        /// When to try again after a connection failed or dropped.
        public var reconnect: ReconnectPolicy
        /// How long a request waits for its answer.
        public var requestTimeout: Duration
        /// How long a request made while offline waits for the connection before it fails
        /// with `ParleyError.offline` (zero: fail at once). Sends never fail this way: they
        /// wait in the outbox.
        public var offlineWait: Duration
        /// The `User-Agent` on HTTP requests, which the server shows in the devices list.
        public var userAgent: String
        /// Messages kept in the cache per conversation.
        public var cachedMessagesPerConversation: Int
        /// A PEM file of the CA certificates an `https://` server's certificate must chain
        /// to (a private CA), instead of the system's store; Linux only. Verification is
        /// never turned off: a certificate that does not verify is an error.
        public var caFile: String?

        /// A configuration with defaults for everything but the server.
        public init(server: URL, databasePath: String? = nil, transport: (any WebSocketTransport)? = nil,
                    reconnect: ReconnectPolicy = ReconnectPolicy(), requestTimeout: Duration = .seconds(15),
                    offlineWait: Duration = .seconds(10), userAgent: String = "ParleyKit",
                    cachedMessagesPerConversation: Int = 500, caFile: String? = nil) {
            self.server = server
            self.databasePath = databasePath
            self.caFile = caFile
            self.transport = transport ?? DefaultTransport.make(caFile: caFile)
            self.reconnect = reconnect
            self.requestTimeout = requestTimeout
            self.offlineWait = offlineWait
            self.userAgent = userAgent
            self.cachedMessagesPerConversation = cachedMessagesPerConversation
        }

        /// `ws(s)://host:port/v1/ws`.
        var webSocketURL: URL? {
            guard var components = URLComponents(url: server, resolvingAgainstBaseURL: false) else { return nil }
            components.scheme = components.scheme == "https" ? "wss" : "ws"
            var path = components.path
            while path.hasSuffix("/") { path.removeLast() }
            components.path = path + "/v1/ws"
            components.query = nil
            return components.url
        }
    }

    /// Exponential backoff with jitter: the n-th consecutive failure waits
    /// `min(maximumDelay, initialDelay × multiplier^(n−1))`, of which a random part
    /// (`jitter`, 0…1) is taken off, so that many clients cut off at once (a server restart)
    /// do not all come back in the same instant.
    public struct ReconnectPolicy: Sendable, Equatable {
        /// The wait after the first failure.
        public var initialDelay: Duration
        /// The longest wait.
        public var maximumDelay: Duration
        /// Growth per failure.
        public var multiplier: Double
        /// The share of each wait that is random (0: none, 1: anywhere from zero).
        public var jitter: Double

        /// Creates a policy (by default 0.5 s, doubling, up to 30 s, half of it random).
        public init(initialDelay: Duration = .milliseconds(500), maximumDelay: Duration = .seconds(30),
                    multiplier: Double = 2, jitter: Double = 0.5) {
            self.initialDelay = initialDelay
            self.maximumDelay = maximumDelay
            self.multiplier = multiplier
            self.jitter = min(max(jitter, 0), 1)
        }

        /// The wait after `failures` consecutive failures (1 or more).
        public func delay(afterFailures failures: Int, random: Double = Double.random(in: 0...1)) -> Duration {
            let base = initialDelay.seconds * pow(multiplier, Double(max(0, failures - 1)))
            let capped = min(base, maximumDelay.seconds)
            let seconds = capped * (1 - jitter * min(max(random, 0), 1))
            return .milliseconds(Int64((seconds * 1000).rounded()))
        }
    }
}

extension Duration {
    /// The duration in seconds, as a `Double`.
    var seconds: Double {
        let (whole, fraction) = components
        return Double(whole) + Double(fraction) / 1e18
    }
}
