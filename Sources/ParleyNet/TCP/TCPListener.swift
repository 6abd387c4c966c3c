import CParleySystem

/// One listening socket on one loop: accepts until the kernel has no more, and refuses cleanly
/// (never spins) when the process runs out of descriptors or the server is full.
final class TCPListener: Selectable, @unchecked Sendable {
    // Invariant for `@unchecked Sendable`: after init, used only on `loop` (the server reaches
    // it through `loop.execute`).
    let loop: EventLoop
    weak var server: TCPServer?
    private var fd: Int32
    /// A spare descriptor held so that at the descriptor limit one can be freed to accept and
    /// immediately close a pending connection, instead of leaving it to wake us forever.
    private var reserveFD: Int32
    private var pausedTimer: ScheduledTimer?

    private static let acceptsPerWakeup = 64
    private static let pauseAfterExhaustion: Duration = .milliseconds(100)

    init(fd: Int32, loop: EventLoop) {
        self.fd = fd
        self.loop = loop
        reserveFD = parley_open_readonly("/dev/null")
    }

    deinit {
        if fd >= 0 { closeDescriptor(fd) }
        if reserveFD >= 0 { closeDescriptor(reserveFD) }
    }

    func start() throws(SystemError) {
        try loop.register(self, fd: fd, events: .readable)
    }

    /// Closes the listening socket (no new connections).
    func stop() {
        guard fd >= 0 else { return }
        pausedTimer?.cancel()
        loop.unregister(fd: fd)
        closeDescriptor(fd)
        fd = -1
    }

    func handleEvents(_ events: IOEvents) {
        guard fd >= 0, let server else { return }
        for _ in 0..<Self.acceptsPerWakeup {
            let accepted = parley_accept(fd)
            if accepted < 0 {
                switch parley_errno() {
                case EAGAIN, EWOULDBLOCK: return
                case EINTR, ECONNABORTED, EPROTO: continue
                case EMFILE, ENFILE, ENOBUFS, ENOMEM:
                    refuseAtDescriptorLimit()
                    return
                default:
                    return
                }
            }
            if server.isShuttingDown || server.openConnections >= server.options.maxConnections {
                loop.metrics.refusedConnections.add(1, ordering: .relaxed)
                closeDescriptor(accepted)
                continue
            }
            var admittedAddress: String?
            if server.options.maxConnectionsPerAddress > 0 {
                let host = SocketAddress.peer(of: accepted)?.host ?? "unknown"
                guard server.admit(address: host) else {
                    loop.metrics.refusedConnections.add(1, ordering: .relaxed)
                    closeDescriptor(accepted)
                    continue
                }
                admittedAddress = host
            }
            _ = parley_setsockopt_int(accepted, Int32(IPPROTO_TCP), TCP_NODELAY, 1)
            let connection = TCPConnection(fd: accepted, loop: loop, state: .open, sharedOptions: server.connectionOptions)
            connection.server = server
            connection.admittedAddress = admittedAddress
            if let tls = server.options.tls {
                do throws(TLSError) {
                    try connection.startTLS(tls)
                } catch {
                    // Not registered yet: dropping the connection closes its descriptor.
                    loop.metrics.refusedConnections.add(1, ordering: .relaxed)
                    if let admittedAddress { server.releaseAddress(admittedAddress) }
                    connection.admittedAddress = nil
                    continue
                }
            }
            connection.handler = server.handler(for: connection)
            do {
                try connection.activate()
                loop.metrics.acceptedConnections.add(1, ordering: .relaxed)
            } catch {
                connection.closeNow(.error(error))
            }
        }
    }

    private func refuseAtDescriptorLimit() {
        loop.metrics.refusedConnections.add(1, ordering: .relaxed)
        if reserveFD >= 0 {
            closeDescriptor(reserveFD)
            let accepted = parley_accept(fd)
            if accepted >= 0 { closeDescriptor(accepted) }
            reserveFD = parley_open_readonly("/dev/null")
            if accepted >= 0 { return }
        }
        // No spare descriptor either: stop listening for a moment rather than spin on a
        // readiness we cannot act on.
        guard pausedTimer == nil else { return }
        try? loop.modify(fd: fd, events: [])
        pausedTimer = loop.schedule(after: Self.pauseAfterExhaustion) { [weak self] in
            guard let self, self.fd >= 0 else { return }
            self.pausedTimer = nil
            try? self.loop.modify(fd: self.fd, events: .readable)
        }
    }
}
