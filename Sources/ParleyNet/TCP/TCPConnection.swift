import CParleySystem

/// A non-blocking TCP connection owned by one event loop.
///
/// Reads go through the loop's shared buffer straight to the handler; writes are queued as
/// shared `ByteChunk`s and flushed once per loop turn with one `writev`, or, for writes given
/// a delivery window, when the loop's window ends. A peer whose writes pile up stops being
/// read (backpressure) and is cut off when it stalls or exceeds its bound.
public final class TCPConnection: Selectable, EndOfTurnWork, DeferredFlushWork, @unchecked Sendable {
    // Invariant for `@unchecked Sendable`: every method and property is used only on `loop`
    // (checked by `assertOnLoop`); other threads submit work through `loop.execute`.

    enum State: Equatable {
        /// A client connection waiting for `connect` to finish.
        case connecting
        /// Reading and writing.
        case open
        /// `close()` was called: no more reads; closes once the queue is written.
        case flushingToClose
        /// The queue was written and our side shut down; waiting briefly for the peer's end of
        /// stream so that unread input does not turn into a reset that eats our last response.
        case lingering
        /// Closed; the descriptor is gone.
        case closed
    }

    /// The loop that owns the connection.
    public let loop: EventLoop
    /// Receives reads and the close; replaceable (protocol upgrades).
    public var handler: ConnectionHandler?
    /// The server that accepted it, if any (for graceful shutdown and limits).
    weak var server: TCPServer?
    /// The client address this connection counts against, when per-address limits apply.
    var admittedAddress: String?

    private(set) var fd: Int32
    private(set) var state: State
    private var options: TCPConnectionOptions
    /// The only write queued, kept inline: a connection mostly has one frame to write per
    /// turn (a fan-out delivers one event to many connections), and an array here would be
    /// allocated and freed for each. Invariant: when set, `writeQueue` holds nothing unwritten.
    private var soleWrite: PendingWrite?
    /// Writes queued when there is more than one, from `writeHead` on.
    private var writeQueue: [PendingWrite] = []
    private var writeHead = 0
    /// Bytes queued and not yet written.
    public private(set) var queuedBytes = 0
    private var interest: UInt32 = 0
    private var flushScheduled = false
    /// Where this connection waits in the loop's delivery window (`write(_:flushWithin:)`);
    /// nil when it does not. Kept by the loop.
    var deferredFlushSlot: Int?
    private var waitingForWritable = false
    private var readPausedForBackpressure = false
    private var readPausedByUser = false
    private var lastRead: UInt64
    private var lastWriteProgress: UInt64
    private var idleTimer: ScheduledTimer?
    private var stallTimer: ScheduledTimer?
    private var closeReason: ConnectionCloseReason = .local
    /// TLS between the socket and the handler, when the connection is encrypted: the handler
    /// reads and writes plaintext either way.
    var tls: TLSEngine?
    /// A TLS client tells its handler it is connected only once the handshake is done.
    private var connectAfterHandshake = false
    /// Why a client connection's TLS could not be set up; reported once it connects, and
    /// nothing is written meanwhile (never in the clear).
    var tlsSetupError: TLSError?

    private struct PendingWrite {
        let chunk: ByteChunk
        var offset: Int

        /// What is left of it, for `writev`.
        var unwritten: iovec {
            iovec(iov_base: UnsafeMutableRawPointer(mutating: chunk.baseAddress! + offset), iov_len: chunk.count - offset)
        }
    }

    init(fd: Int32, loop: EventLoop, state: State, options: TCPConnectionOptions) {
        self.fd = fd
        self.loop = loop
        self.state = state
        self.options = options
        lastRead = loop.now
        lastWriteProgress = loop.now
    }

    deinit {
        if fd >= 0 { closeDescriptor(fd) }
    }

    /// The peer's address, if the socket still has one.
    public var remoteAddress: SocketAddress? { fd >= 0 ? SocketAddress.peer(of: fd) : nil }
    /// The local address, if the socket still has one.
    public var localAddress: SocketAddress? { fd >= 0 ? SocketAddress.local(of: fd) : nil }
    /// True until the connection is closed or closing.
    public var isActive: Bool { state == .open || state == .connecting }
    /// Whether TLS encrypts the connection (from the start, or since `startTLS`).
    public var isTLS: Bool { tls != nil }
    /// The application protocol TLS's ALPN chose (`http/1.1`, `xmpp-client`), if any.
    public var tlsApplicationProtocol: String? { tls?.negotiatedProtocol }

    // MARK: Setup

    /// Registers with the loop and starts reading; for accepted sockets.
    func activate() throws(SystemError) {
        assertOnLoop()
        interest = readInterest
        try loop.register(self, fd: fd, events: interest)
        loop.metrics.openConnections.add(1, ordering: .relaxed)
        armIdleTimer()
    }

    /// Opens a client connection to `address` (optionally from `localAddress`) on `loop`.
    /// `handler.connectionDidConnect` or `connection(_:didCloseWith:)` reports the outcome.
    /// Must be called on `loop`.
    /// With `tls` (a client context), the connection is encrypted and the handler hears of it
    /// once the handshake is done; `serverName` is sent (SNI) and checked against the
    /// server's certificate.
    public static func connect(to address: SocketAddress, from localAddress: SocketAddress? = nil,
                               on loop: EventLoop, options: TCPConnectionOptions = .init(),
                               tls: TLSContext? = nil, serverName: String? = nil,
                               handler: ConnectionHandler) throws(SystemError) -> TCPConnection {

        let fd = try blockingSystemCall("socket") {
            socket(address.addressFamily, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        }
        do throws(SystemError) {
            _ = parley_setsockopt_int(fd, Int32(IPPROTO_TCP), TCP_NODELAY, 1)
            if let localAddress {
                try blockingSystemCall("bind") { localAddress.withSockAddr { parley_bind(fd, $0, $1) } }
            }
            let rc = address.withSockAddr { parley_connect(fd, $0, $1) }
            if rc != 0 && parley_errno() != EINPROGRESS {
                throw SystemError(call: "connect", errno: parley_errno())
            }
        } catch {
            closeDescriptor(fd)
            throw error
        }
        let connection = TCPConnection(fd: fd, loop: loop, state: .connecting, options: options)
        connection.handler = handler
        if let tls {
            // Made now, so that anything written before the connect finishes waits in TLS.
            do throws(TLSError) {
                connection.tls = try TLSEngine(context: tls, serverName: serverName ?? address.host)
            } catch {
                connection.tlsSetupError = error
            }
            connection.connectAfterHandshake = true
        }
        connection.interest = UInt32(EPOLLOUT.rawValue)
        do throws(SystemError) {
            try loop.register(connection, fd: fd, events: connection.interest)
        } catch {
            closeDescriptor(fd)
            connection.fd = -1
            throw error
        }
        loop.metrics.openConnections.add(1, ordering: .relaxed)
        return connection
    }

    // MARK: Writing

    /// Queues `chunk` to be written at the end of this loop turn, after anything queued
    /// before it.
    public func write(_ chunk: ByteChunk) {
        assertOnLoop()
        guard let wire = encrypted(chunk), enqueue(wire) else { return }
        scheduleFlush()
    }

    /// Queues `chunk` to be written when the loop's current delivery window ends, at most
    /// `window` from now; for fan-out, so that events that many connections get within the
    /// window share one `writev` each. A plain `write` (or `close`) to this connection before
    /// then flushes it at the end of that turn with everything else, in order. Its bytes
    /// count against the queue bounds at once. A zero window is a plain `write`.
    public func write(_ chunk: ByteChunk, flushWithin window: Duration) {
        guard window > .zero else {
            write(chunk)
            return
        }
        assertOnLoop()
        guard let wire = encrypted(chunk), enqueue(wire) else { return }
        // Already on its way (a flush this turn, or waiting for the socket), or not connected
        // yet (the connect flushes): nothing to wait for.
        guard !flushScheduled, !waitingForWritable, state == .open else { return }
        loop.deferFlush(self, window: window)
    }

    /// Queues bytes that must not go through TLS (its own records, a plaintext refusal).
    func queueRaw(_ chunk: ByteChunk) {
        guard enqueue(chunk) else { return }
        scheduleFlush()
    }

    /// True once, after a TLS client's handshake: the handler is told it is connected then.
    func connectAfterHandshakeIsPending() -> Bool {
        defer { connectAfterHandshake = false }
        return connectAfterHandshake
    }

    func runDeferredFlush() {
        scheduleFlush()
    }

    /// Appends `chunk` to the queue and applies the queue's bounds; false if nothing more is
    /// to be done (closed, empty, or the peer was just cut off).
    private func enqueue(_ chunk: ByteChunk) -> Bool {
        guard state == .open || state == .connecting, chunk.count > 0 else { return false }
        if soleWrite == nil && writeHead >= writeQueue.count {
            soleWrite = PendingWrite(chunk: chunk, offset: 0)
        } else {
            if let first = soleWrite {
                soleWrite = nil
                writeQueue.append(first)
            }
            writeQueue.append(PendingWrite(chunk: chunk, offset: 0))
        }
        queuedBytes += chunk.count
        if queuedBytes > options.maxQueuedBytes {
            loop.metrics.slowPeersClosed.add(1, ordering: .relaxed)
            closeNow(.slowPeer)
            return false
        }
        if queuedBytes > options.writeHighWatermark && !readPausedForBackpressure {
            readPausedForBackpressure = true
            updateInterest()
            if state == .closed { return false }
        }
        return true
    }

    /// Queues a copy of `bytes`.
    public func write(_ bytes: [UInt8]) {
        write(ByteChunk(bytes))
    }

    private func scheduleFlush() {
        guard !flushScheduled, !waitingForWritable, state != .connecting else { return }
        flushScheduled = true
        loop.requestEndOfTurn(self)
    }

    func runEndOfTurn() {
        flushScheduled = false
        // Everything queued goes now, deferred writes included: the window has nothing left.
        if deferredFlushSlot != nil { loop.cancelDeferredFlush(self) }
        if state == .open || state == .flushingToClose { flush() }
    }

    private func flush() {
        let iovecs = loop.iovecScratch
        while let item = soleWrite {
            iovecs[0] = item.unwritten
            guard let written = writeScratch(1) else { return }
            if written >= item.chunk.count - item.offset {
                soleWrite = nil
            } else {
                soleWrite?.offset += written
            }
            wrote(written)
        }
        while writeHead < writeQueue.count {
            var count = 0
            var index = writeHead
            while index < writeQueue.count && count < EventLoop.iovecScratchCount {
                iovecs[count] = writeQueue[index].unwritten
                count += 1
                index += 1
            }
            guard let written = writeScratch(count) else { return }
            advance(by: written)
        }
        writeQueueDrained()
    }

    /// Writes the first `count` entries of the loop's iovec scratch space: the bytes written,
    /// or nil when the flush must stop (the socket is full, or the connection was closed).
    private func writeScratch(_ count: Int) -> Int? {
        let iovecs = loop.iovecScratch
        let result: IOResult<Int>
        do {
            result = try systemCall("writev") { writev(fd, iovecs, Int32(count)) }
        } catch {
            closeNow(error.errno == EPIPE || error.errno == ECONNRESET ? .peerClosed : .error(error))
            return nil
        }
        guard case .processed(let written) = result else {
            waitForWritable()
            return nil
        }
        return written
    }

    private func waitForWritable() {
        guard !waitingForWritable else { return }
        waitingForWritable = true
        updateInterest()
        armStallTimer()
    }

    /// Moves the queue past `written` bytes.
    private func advance(by written: Int) {
        var remaining = written
        while remaining > 0 {
            let left = writeQueue[writeHead].chunk.count - writeQueue[writeHead].offset
            if remaining >= left {
                remaining -= left
                writeHead += 1
            } else {
                writeQueue[writeHead].offset += remaining
                remaining = 0
            }
        }
        wrote(written)
    }

    /// Bookkeeping for `written` bytes that left, from the queue or the sole write.
    private func wrote(_ written: Int) {
        loop.metrics.bytesOut.add(written, ordering: .relaxed)
        lastWriteProgress = loop.now
        queuedBytes -= written
        if readPausedForBackpressure && queuedBytes < options.writeLowWatermark {
            readPausedForBackpressure = false
            updateInterest()
            // Input TLS already holds would not wake epoll (see `resumeReading`).
            if tls != nil { loop.execute { [weak self] in self?.drainTLS() } }
        }
    }

    private func writeQueueDrained() {
        // Release the queue's storage: an idle connection keeps no write buffer.
        soleWrite = nil
        if !writeQueue.isEmpty { writeQueue = [] }
        writeHead = 0
        queuedBytes = 0
        stallTimer?.cancel()
        stallTimer = nil
        if waitingForWritable {
            waitingForWritable = false
            updateInterest()
        }
        if state == .flushingToClose {
            beginLinger()
            return
        }
        handler?.connectionWriteQueueDidDrain(self)
    }

    // MARK: Reading

    /// Stops reading from the peer until `resumeReading()`.
    public func pauseReading() {
        assertOnLoop()
        readPausedByUser = true
        updateInterest()
    }

    /// Resumes reading after `pauseReading()`.
    public func resumeReading() {
        assertOnLoop()
        readPausedByUser = false
        updateInterest()
        // Records already decrypted-for but not handed over wait in TLS, not in the socket:
        // epoll would never report them.
        if tls != nil {
            loop.execute { [weak self] in self?.drainTLS() }
        }
    }

    /// Whether the handler takes input now (open, and reading not paused).
    var wantsInput: Bool { state == .open && !readPausedByUser && !readPausedForBackpressure }

    private var readInterest: UInt32 { UInt32(EPOLLIN.rawValue) | UInt32(EPOLLRDHUP.rawValue) }

    private func updateInterest() {
        guard fd >= 0, state != .connecting else { return }
        var wanted: UInt32 = 0
        let reading = state == .lingering || (state == .open && !readPausedByUser && !readPausedForBackpressure)
        if reading { wanted |= readInterest }
        if waitingForWritable { wanted |= UInt32(EPOLLOUT.rawValue) }
        guard wanted != interest else { return }
        interest = wanted
        do {
            try loop.modify(fd: fd, events: wanted)
        } catch {
            closeNow(.error(error))
        }
    }

    func handleEvents(_ events: UInt32) {
        if state == .connecting {
            finishConnect(events)
            return
        }
        if events & UInt32(EPOLLERR.rawValue) != 0 {
            var code: Int32 = 0
            _ = parley_getsockopt_int(fd, SOL_SOCKET, SO_ERROR, &code)
            closeNow(code == ECONNRESET || code == EPIPE || code == 0 ? .peerClosed : .error(SystemError(call: "socket", errno: code)))
            return
        }
        if events & UInt32(EPOLLOUT.rawValue) != 0 && waitingForWritable {
            waitingForWritable = false
            flush()
            if state == .closed { return }
            if !waitingForWritable { updateInterest() }
        }
        if events & (UInt32(EPOLLIN.rawValue) | UInt32(EPOLLRDHUP.rawValue) | UInt32(EPOLLHUP.rawValue)) != 0 {
            if interest & UInt32(EPOLLIN.rawValue) != 0 {
                readAvailable()
            } else if events & UInt32(EPOLLHUP.rawValue) != 0 {
                // Both directions are gone; nothing we queue could be delivered.
                closeNow(.peerClosed)
            }
        }
    }

    private func readAvailable() {
        let buffer = loop.readBuffer
        // A few reads per wake-up at most, so one busy peer cannot starve the others.
        for _ in 0..<4 {
            let result: IOResult<Int>
            do {
                result = try systemCall("read") { read(fd, buffer.baseAddress, buffer.count) }
            } catch {
                closeNow(error.errno == ECONNRESET ? .peerClosed : .error(error))
                return
            }
            guard case .processed(let count) = result else { return }
            if count == 0 {
                closeNow(state == .lingering ? closeReason : .peerClosed)
                return
            }
            loop.metrics.bytesIn.add(count, ordering: .relaxed)
            lastRead = loop.now
            if state == .lingering { continue }  // input after our close is discarded
            if tls != nil {
                receiveTLS(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            } else {
                handler?.connection(self, didRead: UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            }
            guard state == .open, interest & UInt32(EPOLLIN.rawValue) != 0 else { return }
            if count < buffer.count { return }
        }
    }

    private func finishConnect(_ events: UInt32) {
        var code: Int32 = 0
        _ = parley_getsockopt_int(fd, SOL_SOCKET, SO_ERROR, &code)
        if code != 0 || events & UInt32(EPOLLERR.rawValue) != 0 {
            closeNow(.error(SystemError(call: "connect", errno: code == 0 ? ECONNREFUSED : code)))
            return
        }
        state = .open
        lastRead = loop.now
        interest = 0
        updateInterest()
        armIdleTimer()
        if let error = tlsSetupError {
            closeNow(.tls(error))
            return
        }
        if let tls, connectAfterHandshake {
            // The handler hears of the connection once the handshake is done.
            do throws(TLSError) {
                try tls.startHandshake()
            } catch {
                closeNow(.tls(error))
                return
            }
            sendTLSOutput()
            return
        }
        handler?.connectionDidConnect(self)
        if state == .open && (soleWrite != nil || !writeQueue.isEmpty) { scheduleFlush() }
    }

    // MARK: Timers

    /// Changes the idle timeout (nil turns it off), counted from the last read.
    public func setIdleTimeout(_ timeout: Duration?) {
        assertOnLoop()
        options.idleTimeout = timeout
        idleTimer?.cancel()
        idleTimer = nil
        armIdleTimer()
    }

    private func armIdleTimer() {
        guard let timeout = options.idleTimeout, idleTimer == nil, state != .closed else { return }
        let limit = timeout.nanoseconds
        let elapsed = loop.now &- lastRead
        let wait = elapsed >= limit ? 0 : limit - elapsed
        // The timer is not moved on every read: when it fires it checks the last read and,
        // if there was one since, sleeps for the rest. One heap operation per period at most.
        idleTimer = loop.schedule(after: .nanoseconds(Int64(wait))) { [weak self] in
            guard let self, self.state != .closed else { return }
            self.idleTimer = nil
            if MonotonicClock.now() &- self.lastRead >= limit {
                self.loop.metrics.idleClosed.add(1, ordering: .relaxed)
                self.closeNow(.idleTimeout)
            } else {
                self.armIdleTimer()
            }
        }
    }

    private func armStallTimer() {
        guard stallTimer == nil else { return }
        let limit = options.writeStallTimeout.nanoseconds
        let elapsed = loop.now &- lastWriteProgress
        let wait = elapsed >= limit ? 0 : limit - elapsed
        stallTimer = loop.schedule(after: .nanoseconds(Int64(wait))) { [weak self] in
            guard let self, self.state != .closed else { return }
            self.stallTimer = nil
            guard self.waitingForWritable else { return }
            if MonotonicClock.now() &- self.lastWriteProgress >= limit {
                self.loop.metrics.slowPeersClosed.add(1, ordering: .relaxed)
                self.closeNow(.slowPeer)
            } else {
                self.armStallTimer()
            }
        }
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
            if soleWrite == nil && writeHead >= writeQueue.count {
                beginLinger()
            } else {
                armStallTimer()
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
        loop.unregister(fd: fd)
        closeDescriptor(fd)
        fd = -1
        soleWrite = nil
        writeQueue = []
        writeHead = 0
        queuedBytes = 0
        idleTimer?.cancel()
        idleTimer = nil
        stallTimer?.cancel()
        stallTimer = nil
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

    private func beginLinger() {
        state = .lingering
        shutdown(fd, Int32(SHUT_WR))
        updateInterest()
        idleTimer?.cancel()
        idleTimer = loop.schedule(after: options.lingerTimeout) { [weak self] in
            guard let self else { return }
            self.closeNow(self.closeReason)
        }
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

    @inline(__always)
    private func assertOnLoop() {
        assert(loop.inEventLoop, "TCPConnection used off its event loop")
    }
}
