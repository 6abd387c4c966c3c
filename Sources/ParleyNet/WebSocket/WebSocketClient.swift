/// Opens client WebSockets: TCP connect, the HTTP upgrade, then a `WebSocketConnection` in
/// the client role handed to the delegate's `webSocketDidOpen`.
public enum WebSocketClient {
    /// Connects to `address` and upgrades to a WebSocket at `path`. Must be called on `loop`.
    /// Success: `delegate.webSocketDidOpen`; failure before that (refused connection, bad
    /// handshake): `delegate.webSocketDidFailToConnect` with the reason.
    /// - Parameters:
    ///   - host: the `Host` header (defaults to the address).
    ///   - origin: an `Origin` header, as a browser would send.
    ///   - localAddress: the source address to bind (load tools spread over 127.0.0.x).
    ///   - tls: a client TLS context for `wss://`; the server's certificate must verify for
    ///     `serverName` (else the failure names the reason).
    ///   - serverName: the name sent (SNI) and checked; defaults to the address's host.
    public static func connect(to address: SocketAddress, path: String = "/", host: String? = nil,
                               origin: String? = nil, headers: HTTPHeaders = [:],
                               localAddress: SocketAddress? = nil, on loop: EventLoop,
                               options: WebSocketOptions = WebSocketOptions(pingInterval: nil),
                               tcpOptions: TCPConnectionOptions = TCPConnectionOptions(idleTimeout: nil),
                               tls: TLSContext? = nil, serverName: String? = nil,
                               delegate: WebSocketDelegate) throws(SystemError) {
        let handshake = ClientHandshakeHandler(path: path, host: host ?? address.description, origin: origin,
                                               headers: headers, options: options, delegate: delegate)
        _ = try TCPConnection.connect(to: address, from: localAddress, on: loop, options: tcpOptions,
                                      tls: tls, serverName: serverName, handler: handshake)
    }
}

/// Sends the upgrade request and waits for the 101, then swaps in the WebSocket.
private final class ClientHandshakeHandler: ConnectionHandler {
    private let request: HTTPRequestHead
    private let key: String
    private let options: WebSocketOptions
    private var delegate: WebSocketDelegate?
    private let decoder = HTTPResponseHeadDecoder()
    private var upgraded = false

    init(path: String, host: String, origin: String?, headers: HTTPHeaders, options: WebSocketOptions, delegate: WebSocketDelegate) {
        (request, key) = WebSocketHandshake.clientRequest(path: path, host: host, origin: origin, headers: headers)
        self.options = options
        self.delegate = delegate
    }

    func connectionDidConnect(_ connection: TCPConnection) {
        connection.write(HTTPRequestEncoder.encodeHead(request))
    }

    func connection(_ connection: TCPConnection, didRead bytes: UnsafeRawBufferPointer) {
        switch decoder.feed(bytes) {
        case .needMoreData:
            return
        case .failure(let error):
            fail(connection, "bad handshake response: \(error)")
        case .head(let status, let headers, let leftover):
            let httpStatus = HTTPStatus(code: status, reason: "")
            switch WebSocketHandshake.validateResponse(status: httpStatus, headers: headers, key: key) {
            case .failure(let error):
                fail(connection, "handshake refused: \(error)")
            case .success:
                guard let delegate else { return }
                upgraded = true
                self.delegate = nil
                _ = WebSocketConnection(connection: connection, role: .client, options: options,
                                        delegate: delegate, leftover: leftover)
            }
        }
    }

    private func fail(_ connection: TCPConnection, _ reason: String) {
        report(reason)
        connection.closeNow(.local)
    }

    func connection(_ connection: TCPConnection, didCloseWith reason: ConnectionCloseReason) {
        guard !upgraded else { return }
        if case .tls(let error) = reason {
            report("TLS failed: \(error)")
        } else {
            report("connection closed before the handshake finished: \(reason)")
        }
    }

    private func report(_ reason: String) {
        guard let delegate else { return }
        self.delegate = nil
        delegate.webSocketDidFailToConnect(reason: reason)
    }
}
