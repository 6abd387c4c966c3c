// The connection's idle timeout and its close: flushing what is queued, lingering for the
// peer's end, or closing at once. Like the rest of `TCPConnection`, only on its loop.
extension TCPConnection {
    // MARK: Timers

    /// Changes the idle timeout (nil turns it off), counted from the last read.
    public func setIdleTimeout(_ timeout: Duration?) {
        assertOnLoop()
        options.idleTimeout = timeout
        // A lingering connection's timer slot holds its linger deadline: leave it be.
        guard timesOutWhenIdle else { return }
        timers.cancelIdle()
        armIdleTimer()
    }

    /// Whether the idle timeout applies: not once the connection lingers (the linger timer
    /// ends it) or is closed.
    var timesOutWhenIdle: Bool { state == .open || state == .connecting || state == .flushingToClose }

    func armIdleTimer() {
        guard timesOutWhenIdle else { return }
        timers.armIdle(options.idleTimeout, for: self, on: loop)
    }

    // MARK: Closing

    /// Closes after everything queued is written. Further writes are dropped.
    public func close(reason: ConnectionCloseReason = .local) {
        assertOnLoop()
        switch state {
        case .open:
            if let tls, tls.isEstablished {
                tls.shutdown()
                sendTLSOutput()
            }
            closeReason = reason
            state = .flushingToClose
            updateInterest()
            if pending.isEmpty {
                beginLinger()
            } else {
                timers.armStall(options.writeStallTimeout, for: self, on: loop)
                scheduleFlush()
            }
        case .connecting:
            closeNow(reason)
        case .flushingToClose, .lingering, .closed:
            return
        }
    }

    /// Closes at once, dropping anything not yet written.
    public func closeNow(_ reason: ConnectionCloseReason = .local) {
        guard state != .closed else { return }
        state = .closed
        loop.unregister(fd: socket.fd)
        socket.close()
        pending.removeAll()
        timers.cancelAll()
        tls = nil
        if deferredFlushSlot != nil { loop.cancelDeferredFlush(self) }
        loop.metrics.openConnections.subtract(1, ordering: .relaxed)
        if let admittedAddress {
            server?.releaseAddress(admittedAddress)
            self.admittedAddress = nil
        }
        let handler = self.handler
        self.handler = nil
        handler?.connection(self, didCloseWith: reason)
    }

    func beginLinger() {
        state = .lingering
        socket.shutdownOutput()
        updateInterest()
        timers.armLinger(options.lingerTimeout, reason: closeReason, for: self, on: loop)
    }

    /// Asks the handler to finish politely; part of a server's graceful shutdown.
    func requestShutdown() {
        guard state == .open else { return }
        if let handler {
            handler.connectionShouldShutDown(self)
        } else {
            close(reason: .shutdown)
        }
    }
}
