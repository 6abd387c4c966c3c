#if canImport(ParleyNet)
public import Foundation
import ParleyNet
import ParleySync
#if canImport(Glibc)
import Glibc
#endif

/// The Linux transport: Parley's own WebSocket client on one event-loop thread shared by
/// every client of the process. Plain `ws://` only (ParleyNet has no TLS).
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

    /// - Parameters:
    ///   - connectTimeout: how long opening a WebSocket may take.
    ///   - pingInterval: keep-alive interval.
    public init(connectTimeout: Duration = .seconds(10), pingInterval: Duration = .seconds(20)) {
        self.connectTimeout = connectTimeout
        self.pingInterval = pingInterval
        // ParleyNet writes with writev, which raises SIGPIPE when the server has gone; the
        // default action would end the whole app. A client library has to ignore it.
        signal(SIGPIPE, SIG_IGN)
    }

    deinit {
        group.withLock { $0 }?.shutdown()
    }

    /// Opens a WebSocket at `url` (`ws://host:port/path`).
    public func connect(to url: URL) async throws(ParleyError) -> any TransportSocket {
        guard url.scheme == "ws" else {
            throw ParleyError.transport("\(url.scheme ?? "no scheme"):// is not supported by ParleyNet's client (use ws://)")
        }
        guard let host = url.host, !host.isEmpty else { throw ParleyError.transport("no host in \(url)") }
        let port = url.port ?? 80
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
                                                tcpOptions: TCPConnectionOptions(idleTimeout: nil), delegate: socket)
                } catch {
                    socket.webSocketDidFailToConnect(reason: "\(error)")
                }
            }
        }
        try result.get()
        return socket
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
