// The connection's deadlines and its close: flushing what is queued, lingering for the
// peer's end, or closing at once. Like the rest of `TCPConnection`, only on its loop.
extension TCPConnection {
    // MARK: Deadlines

    /// Changes the idle timeout (nil turns it off), counted from the last read.
    public func setIdleTimeout(_ timeout: Duration?) {
        assertOnLoop()
        idleTimeoutNanoseconds = Self.nanoseconds(of: timeout)
        fileDeadline()
    }

    /// Asks for `connectionDeadlinePassed` on the handler once `delay` has passed (nil: no
    /// deadline); replaces the previous one. Kept like the connection's own deadlines, to
    /// `DeadlineWheel.tickNanoseconds`, never early; cleared when it passes or the connection closes.
    public func setHandlerDeadline(after delay: Duration?) {
        setHandlerDeadline(at: Self.deadline(after: delay, now: loop.now))
    }

    /// The same at a time of the loop's clock (`MonotonicClock`'s nanoseconds; 0: no deadline).
    func setHandlerDeadline(at deadline: UInt64) {
        assertOnLoop()
        deadlines.handler = deadline
        fileDeadline()
    }

    /// The loop's time `delay` after `now` (at least 1, so that it is never "none"); 0 for nil.
    static func deadline(after delay: Duration?, now: UInt64) -> UInt64 {
        delay.map { max(1, now &+ $0.nanoseconds) } ?? 0
    }

    /// An idle timeout as the nanoseconds `idleTimeoutNanoseconds` keeps (0: none; a zero
    /// timeout counts as one nanosecond).
    static func nanoseconds(of timeout: Duration?) -> UInt64 {
        timeout.map { max(1, $0.nanoseconds) } ?? 0
    }

    /// When the peer last sent something (the loop's clock, `MonotonicClock`'s nanoseconds).
    public var lastReadTime: UInt64 { deadlines.lastRead }

    /// Whether the idle timeout applies: not once the connection lingers (the linger
    /// deadline ends it) or is closed.
    var timesOutWhenIdle: Bool { state == .open || state == .connecting || state == .flushingToClose }

    /// The earliest of the deadlines that apply now; nil for none.
    var nextDeadline: UInt64? {
        var earliest = UInt64.max
        if state == .lingering {
            earliest = deadlines.lingerEnd
        } else if timesOutWhenIdle, idleTimeoutNanoseconds > 0 {
            earliest = deadlines.lastRead &+ idleTimeoutNanoseconds
        }
        if isWaitingForWritable {
            earliest = min(earliest, deadlines.lastWriteProgress &+ options.writeStallTimeout.nanoseconds)
        }
        if deadlines.handler != 0 { earliest = min(earliest, deadlines.handler) }
        return earliest == .max ? nil : earliest
    }

    /// Files the connection in the loop's wheel under its earliest deadline, unless it is
    /// filed under one no later (that one comes first, and files it again).
    func fileDeadline() {
        guard state != .closed, let deadline = nextDeadline else { return }
        if wheelSlot.isFiled && filedDeadline <= deadline { return }
        loop.deadlines.file(self, at: deadline)
    }

    /// The wheel found the filed deadline passed: act on whichever deadline is due, then
    /// file the connection under the next.
    func deadlinePassed(now: UInt64) {
        guard state != .closed else { return }
        let stall = options.writeStallTimeout.nanoseconds
        if state == .lingering {
            if now >= deadlines.lingerEnd {
                closeNow(closeReason)
                return
            }
        } else if timesOutWhenIdle, idleTimeoutNanoseconds > 0,
                  ConnectionDeadlines.passed(idleTimeoutNanoseconds, since: deadlines.lastRead, now: now) {
            loop.metrics.idleClosed.add(1, ordering: .relaxed)
            closeNow(.idleTimeout)
            return
        }
        if isWaitingForWritable, ConnectionDeadlines.passed(stall, since: deadlines.lastWriteProgress, now: now) {
            loop.metrics.slowPeersClosed.add(1, ordering: .relaxed)
            closeNow(.slowPeer)
            return
        }
        if deadlines.handler != 0 && now >= deadlines.handler {
            deadlines.handler = 0
            handler?.connectionDeadlinePassed(self)
            if state == .closed { return }
        }
        fileDeadline()
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
        loop.deadlines.remove(self)
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
        deadlines.lingerEnd = loop.now &+ options.lingerTimeout.nanoseconds
        fileDeadline()
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
