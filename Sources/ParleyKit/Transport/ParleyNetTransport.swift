#if canImport(ParleyNet)
public import Foundation
import ParleyNet
import ParleySync
#if canImport(Glibc)
import Glibc
#endif

/// The Linux transport: Parley's own WebSocket client on one event-loop thread shared by
/// every client of the process; `ws://`, and `wss://` with the server's certificate checked
/// against the system's CA store or `caFile` (its name too, which is sent as SNI). Also the
/// HTTPS half of the protocol on Linux (`exchange`), so both trust the same CAs.
public final class ParleyNetTransport: WebSocketTransport {
    /// The process-wide instance `DefaultTransport.make()` returns.
    public static let shared = ParleyNetTransport()

    /// Created on first use, so that a process that never connects starts no thread.
    private let group = PThreadMutex<EventLoopGroup?>(nil)
    /// How long the TCP connect plus the upgrade may take.
    public let connectTimeout: Duration
    /// Pings after this long without input, so that a server that vanished without a FIN
    /// (a cut cable, a sleeping laptop) is noticed within about two intervals.
    public let pingInterval: Duration
    /// A PEM file of the CA certificates a server's certificate must chain to; nil: the
    /// system's CA store.
    public let caFile: String?
    /// The TLS client context, made on first use of `wss://` or `https://`.
    private let tls = PThreadMutex<TLSContext?>(nil)

    /// - Parameters:
    ///   - connectTimeout: how long opening a WebSocket may take.
    ///   - pingInterval: keep-alive interval.
    ///   - caFile: the CAs to trust for `wss://` and `https://` instead of the system's.
    public init(connectTimeout: Duration = .seconds(10), pingInterval: Duration = .seconds(20), caFile: String? = nil) {
        self.caFile = caFile
        self.connectTimeout = connectTimeout
        self.pingInterval = pingInterval
        // ParleyNet writes with writev, which raises SIGPIPE when the server has gone; the
        // default action would end the whole app. A client library has to ignore it.
        signal(SIGPIPE, SIG_IGN)
    }

    deinit {
        group.withLock { $0 }?.shutdown()
    }

    /// Opens a WebSocket at `url` (`ws://host:port/path` or `wss://…`).
    public func connect(to url: URL) async throws(ParleyError) -> any TransportSocket {
        guard url.scheme == "ws" || url.scheme == "wss" else {
            throw ParleyError.transport("\(url.scheme ?? "no scheme"):// is not supported by ParleyNet's client (use ws:// or wss://)")
        }
        guard let host = url.host, !host.isEmpty else { throw ParleyError.transport("no host in \(url)") }
        let secure = url.scheme == "wss"
        let port = url.port ?? (secure ? 443 : 80)
        let tls = secure ? try tlsContext() : nil
        let address = try await HostResolver.resolve(host: host, port: port)
        let loop = try eventLoop()
        let path = (url.path.isEmpty ? "/" : url.path) + (url.query.map { "?" + $0 } ?? "")
        let hostHeader = url.port.map { "\(host):\($0)" } ?? host
        let socket = ParleyNetSocket(loop: loop)
        let options = WebSocketOptions(pingInterval: pingInterval)
        let timeout = connectTimeout
        let result: Result<Void, ParleyError> = await withCheckedContinuation { continuation in
            loop.execute {
                socket.startOpening(continuation, timeout: timeout)
                do {
                    try WebSocketClient.connect(to: address, path: path, host: hostHeader, on: loop, options: options,
                                                tcpOptions: TCPConnectionOptions(idleTimeout: nil), tls: tls,
                                                serverName: host, delegate: socket)
                } catch {
                    socket.webSocketDidFailToConnect(reason: "\(error)")
                }
            }
        }
        try result.get()
        return socket
    }

    /// One `https://` request on its own connection, the certificate checked as for `wss://`:
    /// the status and the body.
    func exchange(method: String, url: URL, headers: [(String, String)], body: Data?) async throws(ParleyError) -> (Int, Data) {
        guard url.scheme == "https", let host = url.host, !host.isEmpty else {
            throw ParleyError.transport("not an https:// URL: \(url)")
        }
        let address = try await HostResolver.resolve(host: host, port: url.port ?? 443)
        let tls = try tlsContext()
        let loop = try eventLoop()
        var fields = HTTPHeaders(headers)
        fields.replaceOrAdd(name: "Host", value: url.port.map { "\(host):\($0)" } ?? host)
        let target = (url.path.isEmpty ? "/" : url.path) + (url.query.map { "?" + $0 } ?? "")
        let head = HTTPRequestHead(method: HTTPMethod(rawValue: method), uri: target, headers: fields)
        let bytes = body.map { Array($0) } ?? []
        // Connect, handshake, request and answer: a few round trips, each bounded like a connect.
        let timeout = connectTimeout * 3
        let result: Result<HTTPClientExchange.Response, HTTPClientExchangeError> = await withCheckedContinuation { continuation in
            loop.execute {
                HTTPClientExchange.send(head, body: bytes, to: address, on: loop, tls: tls, serverName: host, timeout: timeout) {
                    continuation.resume(returning: $0)
                }
            }
        }
        switch result {
        case .success(let response): return (response.status, Data(response.body))
        case .failure(let error): throw ParleyError.transport("\(method) \(url.absoluteString): \(error)")
        }
    }

    private func tlsContext() throws(ParleyError) -> TLSContext {
        let caFile = self.caFile
        let made: Result<TLSContext, ParleyError> = tls.withLock { tls in
            if let tls { return .success(tls) }
            do {
                let created = try TLSContext(clientCAFile: caFile, alpn: ["http/1.1"])
                tls = created
                return .success(created)
            } catch {
                return .failure(.transport("cannot set up TLS: \(error)"))
            }
        }
        return try made.get()
    }

    private func eventLoop() throws(ParleyError) -> EventLoop {
        let made: Result<EventLoop, ParleyError> = group.withLock { group in
            if let group { return .success(group.next()) }
            do {
                let created = try EventLoopGroup(loopCount: 1, name: "parleykit")
                group = created
                return .success(created.next())
            } catch {
                return .failure(.transport("cannot start the network thread: \(error)"))
            }
        }
        return try made.get()
    }
}
#endif
