/// A non-blocking TCP connection owned by one event loop.
///
/// Reads go through the loop's shared buffer straight to the handler; writes are queued as
/// shared `ByteChunk`s and flushed once per loop turn with one `writev`, or, for writes given
/// a delivery window, when the loop's window ends. A peer whose writes pile up stops being
/// read (backpressure) and is cut off when it stalls or exceeds its bound.
///
/// The parts apart: `TCPSocket` makes the system calls, `PendingWrites` holds what waits to
/// be written, `ConnectionDeadlines` the idle, stall, linger and handler deadlines (which the
/// loop's `DeadlineWheel` watches: no timer of its own); this type is the
/// state machine that drives them from the loop's events.
public final class TCPConnection: Selectable, EndOfTurnWork, DeferredFlushWork, @unchecked Sendable {
    // Invariant for `@unchecked Sendable`: every method and property is used only on `loop`
    // (checked by `assertOnLoop`); other threads submit work through `loop.execute`.
    // The state the loop drives is `@exclusivity(unchecked)`, as in `EventLoop`: one thread
    // only, and the runtime's checks cost a dozen calls a message (docs/benchmarks.md, (aa)).

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

    // The stored properties go widest first and the small ones together at the end: Swift
    // lays them out in the order written, and a connection lives as long as its peer stays.

    /// The loop that owns the connection.
    public let loop: EventLoop
    /// Receives reads and the close; replaceable (protocol upgrades).
    @exclusivity(unchecked) public var handler: ConnectionHandler?
    /// The server that accepted it, if any (for graceful shutdown and limits).
    weak var server: TCPServer?
    /// The client address this connection counts against, when per-address limits apply.
    var admittedAddress: String?
    /// The options of its server (or its own, for a client connection), shared.
    private let sharedOptions: SharedValue<TCPConnectionOptions>
    /// The options; `idleTimeout` there is the server's, `idleTimeoutNanoseconds` this connection's.
    var options: TCPConnectionOptions { sharedOptions.value }
    /// This connection's idle timeout in nanoseconds (`setIdleTimeout`); 0 for none.
    @exclusivity(unchecked) var idleTimeoutNanoseconds: UInt64
    /// What waits to be written, each chunk released once written.
    @exclusivity(unchecked) var pending = PendingWrites()
    /// The idle, write stall, linger and handler deadlines, watched by the loop's wheel.
    @exclusivity(unchecked) var deadlines: ConnectionDeadlines
    /// The deadline it is filed under (the earliest of `deadlines` when filed).
    @exclusivity(unchecked) var filedDeadline: UInt64 = 0
    /// TLS between the socket and the handler, when the connection is encrypted: the handler
    /// reads and writes plaintext either way.
    @exclusivity(unchecked) var tls: TLSEngine?
    /// Why it closes after a linger; and, before a client connection with TLS opens, `.tls`
    /// when its TLS could not be set up (`tlsSetupError`): kept here, not in a field of its
    /// own that every connection would carry for life.
    var closeReason: ConnectionCloseReason = .local
    /// Where the loop's `DeadlineWheel` files this connection (`DeadlineWheel.Slot.none`
    /// while it is not filed: no optional's extra byte).
    @exclusivity(unchecked) var wheelSlot = DeadlineWheel.Slot.none
    @exclusivity(unchecked) var socket: TCPSocket
    /// What the loop watches the socket for now.
    @exclusivity(unchecked) private var interest: IOEvents = []
    /// Where this connection waits in the loop's delivery window (`write(_:flushWithin:)`);
    /// nil when it does not. Kept by the loop.
    @exclusivity(unchecked) var deferredFlushSlot: Int?
    // One byte each, in the optional's padding.
    @exclusivity(unchecked) var state: State
    @exclusivity(unchecked) private var flushScheduled = false
    @exclusivity(unchecked) private var waitingForWritable = false
    @exclusivity(unchecked) private var readPausedForBackpressure = false
    @exclusivity(unchecked) private var readPausedByUser = false
    /// A TLS client tells its handler it is connected only once the handshake is done.
    @exclusivity(unchecked) private var connectAfterHandshake = false

    convenience init(fd: Int32, loop: EventLoop, state: State, options: TCPConnectionOptions) {
        self.init(fd: fd, loop: loop, state: state, sharedOptions: SharedValue(options))
    }

    init(fd: Int32, loop: EventLoop, state: State, sharedOptions: SharedValue<TCPConnectionOptions>) {
        socket = TCPSocket(fd: fd)
        self.loop = loop
        self.state = state
        self.sharedOptions = sharedOptions
        idleTimeoutNanoseconds = Self.nanoseconds(of: sharedOptions.value.idleTimeout)
        deadlines = ConnectionDeadlines(now: loop.now)
    }

    deinit {
        socket.close()
    }

    /// Bytes queued and not yet written.
    public var queuedBytes: Int { pending.bytes }

    /// Why a client connection's TLS could not be set up (it has no engine and was told why
    /// in `closeReason`); reported once it connects, and nothing is written meanwhile (never
    /// in the clear).
    var tlsSetupError: TLSError? {
        guard tls == nil, case .tls(let error) = closeReason else { return nil }
        return error
    }
    /// True once the connection is closed and its descriptor gone.
    var isClosed: Bool { state == .closed }
    /// True while writes wait for the socket to take more.
    var isWaitingForWritable: Bool { waitingForWritable }
    /// The peer's address, if the socket still has one.
    public var remoteAddress: SocketAddress? { socket.isOpen ? SocketAddress.peer(of: socket.fd) : nil }
    /// The local address, if the socket still has one.
    public var localAddress: SocketAddress? { socket.isOpen ? SocketAddress.local(of: socket.fd) : nil }
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
        interest = .reading
        try loop.register(self, fd: socket.fd, events: interest)
        loop.metrics.openConnections.add(1, ordering: .relaxed)
        fileDeadline()
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
        let socket = try TCPSocket.connecting(to: address, from: localAddress)
        let connection = TCPConnection(fd: socket.fd, loop: loop, state: .connecting, options: options)
        connection.handler = handler
        if let tls {
            // Made now, so that anything written before the connect finishes waits in TLS.
            do throws(TLSError) {
                connection.tls = try TLSEngine(context: tls, serverName: serverName ?? address.host)
            } catch {
                connection.closeReason = .tls(error)
            }
            connection.connectAfterHandshake = true
        }
        connection.interest = .writable
        do throws(SystemError) {
            try loop.register(connection, fd: connection.socket.fd, events: connection.interest)
        } catch {
            connection.socket.close()
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
        pending.append(chunk, spares: &loop.spareWriteRings)
        if pending.bytes > options.maxQueuedBytes {
            loop.metrics.slowPeersClosed.add(1, ordering: .relaxed)
            closeNow(.slowPeer)
            return false
        }
        if pending.bytes > options.writeHighWatermark && !readPausedForBackpressure {
            readPausedForBackpressure = true
            updateInterest()
            if state == .closed { return false }
        }
        return true
    }

    /// Queues a copy of `bytes`.
    public func write(_ bytes: [UInt8]) {
        write(ByteChunk.of(bytes))
    }

    func scheduleFlush() {
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
        while !pending.isEmpty {
            let count = pending.gather(into: iovecs, limit: EventLoop.iovecScratchCount)
            guard let written = writeScratch(count) else { return }
            pending.advance(by: written, spares: &loop.spareWriteRings)
            wrote(written)
        }
        writeQueueDrained()
    }

    /// Writes the first `count` entries of the loop's iovec scratch space: the bytes written,
    /// or nil when the flush must stop (the socket is full, or the connection was closed).
    private func writeScratch(_ count: Int) -> Int? {
        let iovecs = loop.iovecScratch
        let result: IOResult<Int>
        do {
            result = try socket.send(iovecs, count: count)
        } catch {
            closeNow(TCPSocket.isPeerGone(error.errno) ? .peerClosed : .error(error))
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
        fileDeadline()
    }

    /// Bookkeeping for `written` bytes that left the queue.
    private func wrote(_ written: Int) {
        loop.metrics.bytesOut.add(written, ordering: .relaxed)
        deadlines.lastWriteProgress = loop.now
        if readPausedForBackpressure && pending.bytes < options.writeLowWatermark {
            readPausedForBackpressure = false
            updateInterest()
            // Input TLS already holds would not wake epoll (see `resumeReading`).
            if tls != nil { loop.execute { [weak self] in self?.drainTLS() } }
        }
    }

    private func writeQueueDrained() {
        // The queue released its storage as it drained: an idle connection keeps no write buffer.
        // (The stall deadline lapses with `waitingForWritable`; the wheel finds out lazily.)
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

    func updateInterest() {
        guard socket.isOpen, state != .connecting else { return }
        var wanted: IOEvents = []
        let reading = state == .lingering || (state == .open && !readPausedByUser && !readPausedForBackpressure)
        if reading { wanted.formUnion(.reading) }
        if waitingForWritable { wanted.insert(.writable) }
        guard wanted != interest else { return }
        interest = wanted
        do {
            try loop.modify(fd: socket.fd, events: wanted)
        } catch {
            closeNow(.error(error))
        }
    }

    func handleEvents(_ events: IOEvents) {
        if state == .connecting {
            finishConnect(events)
            return
        }
        if events.contains(.error) {
            let code = socket.pendingError()
            closeNow(code == 0 || TCPSocket.isPeerGone(code) ? .peerClosed : .error(SystemError(call: "socket", errno: code)))
            return
        }
        if events.contains(.writable) && waitingForWritable {
            waitingForWritable = false
            flush()
            if state == .closed { return }
            if !waitingForWritable { updateInterest() }
        }
        if !events.isDisjoint(with: .input) {
            if interest.contains(.readable) {
                readAvailable()
            } else if events.contains(.hangup) {
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
                result = try socket.receive(into: buffer)
            } catch {
                closeNow(TCPSocket.isPeerGone(error.errno) ? .peerClosed : .error(error))
                return
            }
            guard case .processed(let count) = result else { return }
            if count == 0 {
                closeNow(state == .lingering ? closeReason : .peerClosed)
                return
            }
            loop.metrics.bytesIn.add(count, ordering: .relaxed)
            deadlines.lastRead = loop.now
            if state == .lingering { continue }  // input after our close is discarded
            if tls != nil {
                receiveTLS(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            } else {
                handler?.connection(self, didRead: UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            }
            guard state == .open, interest.contains(.readable) else { return }
            if count < buffer.count { return }
        }
    }

    private func finishConnect(_ events: IOEvents) {
        if let error = socket.connectError(reported: events.contains(.error)) {
            closeNow(.error(error))
            return
        }
        state = .open
        deadlines.lastRead = loop.now
        interest = []
        updateInterest()
        fileDeadline()
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
        if state == .open && !pending.isEmpty { scheduleFlush() }
    }

    @inline(__always)
    func assertOnLoop() {
        assert(loop.inEventLoop, "TCPConnection used off its event loop")
    }
}
