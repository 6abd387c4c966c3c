public import ParleyNet

/// The client-to-server XMPP listener: one `XMPPSession` per TCP connection, on the same event
/// loops as the HTTP server.
public final class XMPPServer: Sendable {
    let tcp: TCPServer

    /// Binds `address` and starts accepting client streams.
    public init(group: EventLoopGroup, address: SocketAddress, options: TCPServerOptions,
                services: XMPPServices) throws(SystemError) {
        var options = options
        options.connection.idleTimeout = services.configuration.idleTimeout
        // Built once: every session dispatches through the same immutable table.
        let handlers = XMPPHandlerTable.standard(domain: services.configuration.domain)
        tcp = try TCPServer(group: group, address: address, options: options) { connection in
            let session = XMPPSession(connection: connection, services: services, handlers: handlers)
            // Called on the connection's loop, the session's executor.
            session.assumeIsolated { $0.start() }
            return session
        }
    }

    /// The port actually bound.
    public var port: Int { tcp.localAddress.port }

    /// Stops accepting; open streams are closed with `system-shutdown`.
    @discardableResult
    public func shutdown(timeout: Duration) -> Int {
        tcp.shutdown(timeout: timeout)
    }
}
