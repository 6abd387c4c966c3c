/// A WebSocket over a `TCPConnection`: decodes frames, answers pings, runs the closing
/// handshake and hands whole messages to its delegate. Used on its connection's loop only.
public final class WebSocketConnection: ConnectionHandler, @unchecked Sendable {
    // Invariant for `@unchecked Sendable`: used only on `connection.loop`, like the
    // connection itself; other threads go through `loop.execute`.

    enum State: Equatable {
        case open
        /// We sent a close frame and wait for the peer's.
        case closeSent
        case closed
    }

    // The stored properties are in layout order (Swift keeps a class's declaration order):
    // `ownDeadline` fills the padding before the decoder (aligned to 16 bytes), and the
    // one-byte fields sit together, so that the object stays in its malloc size class.

    /// The TCP connection underneath.
    public let connection: TCPConnection
    /// Receives messages; released when the WebSocket closes.
    public var delegate: WebSocketDelegate?
    /// The WebSocket's own next deadline: the next ping, or the end of the closing handshake
    /// (0: none). The connection's handler deadline is the earlier of it and `delegateDeadline`.
    private var ownDeadline: UInt64 = 0
    // On the loop only, as `TCPConnection`'s state: no runtime exclusivity checks.
    @exclusivity(unchecked) private var decoder: WebSocketFrameDecoder
    /// The options of its server (or its own, for a client), shared.
    private let sharedOptions: SharedValue<WebSocketOptions>
    private var options: WebSocketOptions { sharedOptions.value }
    /// When the delegate asked to hear `webSocketDeadlinePassed` (`setDelegateDeadline`; 0: never).
    private var delegateDeadline: UInt64 = 0
    /// Whether this side is the server or the client (clients mask their frames).
    public let role: WebSocketRole
    private let encoder: WebSocketFrameEncoder
    @exclusivity(unchecked) private(set) var state: State = .open
    private var reportedClose = false
    private var closeCode: WebSocketCloseCode = .abnormalClosure
    private var closeReason = ""

    /// The event loop the WebSocket lives on.
    public var loop: EventLoop { connection.loop }

    /// Takes over `connection` (which must be open) and starts reading frames; `leftover` are
    /// bytes that followed the handshake.
    public convenience init(connection: TCPConnection, role: WebSocketRole, options: WebSocketOptions,
                            delegate: WebSocketDelegate, leftover: [UInt8] = []) {
        self.init(connection: connection, role: role, sharedOptions: SharedValue(options), delegate: delegate,
                  leftover: leftover)
    }

    /// The same, with options shared by every WebSocket of a server.
    init(connection: TCPConnection, role: WebSocketRole, sharedOptions: SharedValue<WebSocketOptions>,
         delegate: WebSocketDelegate, leftover: [UInt8] = []) {
        let options = sharedOptions.value
        self.connection = connection
        self.role = role
        self.sharedOptions = sharedOptions
        self.delegate = delegate
        decoder = WebSocketFrameDecoder(role: role, limits: options.limits)
        encoder = WebSocketFrameEncoder(role: role)
        connection.handler = self
        connection.loop.metrics.openWebSockets.add(1, ordering: .relaxed)
        if let interval = options.pingInterval {
            // Idle peers answer pings, so only one that is gone stays silent past the timeout.
            connection.setIdleTimeout(interval * 2 + .seconds(15))
            setOwnDeadline(after: interval)
        }
        delegate.webSocketDidOpen(self)
        if !leftover.isEmpty, state != .closed {
            var leftover = leftover
            leftover.withUnsafeMutableBytes { consume($0) }
        }
    }

    /// Whether messages can still be sent.
    public var isOpen: Bool { state == .open }

    // MARK: Sending

    /// Sends a text message.
    public func send(text: String) {
        guard state == .open else { return }
        connection.write(encoder.text(text))
        connection.loop.metrics.webSocketMessagesOut.add(1, ordering: .relaxed)
    }

    /// Sends a binary message.
    public func send(binary bytes: [UInt8]) {
        guard state == .open else { return }
        connection.write(encoder.binary(bytes))
        connection.loop.metrics.webSocketMessagesOut.add(1, ordering: .relaxed)
    }

    /// Sends a frame encoded once for many recipients (server role: unmasked). Encode it
    /// with `WebSocketFrameEncoder(role: .server)`. A non-zero `window` lets the frame wait
    /// for the loop's delivery window (`TCPConnection.write(_:flushWithin:)`).
    public func send(encodedFrame: ByteChunk, flushWithin window: Duration = .zero) {
        guard state == .open else { return }
        precondition(role == .server, "shared frames are unmasked: server role only")
        connection.write(encodedFrame, flushWithin: window)
        connection.loop.metrics.webSocketMessagesOut.add(1, ordering: .relaxed)
    }

    /// Bytes waiting to be written to the peer (for fan-out policies).
    public var queuedBytes: Int { connection.queuedBytes }

    /// Starts the closing handshake; the TCP connection closes when the peer answers or the
    /// close timeout passes.
    public func close(code: WebSocketCloseCode = .normalClosure, reason: String = "") {
        guard state == .open else { return }
        state = .closeSent
        closeCode = code
        closeReason = reason
        connection.write(encoder.close(code: code, reason: reason))
        // The peer's close frame completes the handshake; a peer that never sends one is cut
        // off after the timeout (the deadline replaces the next ping's).
        setOwnDeadline(after: options.closeTimeout)
    }

    // MARK: Deadlines

    /// Asks for `webSocketDeadlinePassed` on the delegate once `delay` has passed (nil: no
    /// deadline); replaces the delegate's previous one. Kept on the loop's `DeadlineWheel` with
    /// the connection's own deadlines (to `DeadlineWheel.tickNanoseconds`, never early), so a
    /// delegate's timeout costs no timer object; it ends when the WebSocket closes.
    public func setDelegateDeadline(after delay: Duration?) {
        delegateDeadline = TCPConnection.deadline(after: delay, now: loop.now)
        fileDeadline()
    }

    private func setOwnDeadline(after delay: Duration?) {
        ownDeadline = TCPConnection.deadline(after: delay, now: loop.now)
        fileDeadline()
    }

    /// Files the earlier of the two deadlines as the connection's handler deadline.
    private func fileDeadline() {
        let earliest = ownDeadline == 0 ? delegateDeadline
            : delegateDeadline == 0 ? ownDeadline : min(ownDeadline, delegateDeadline)
        connection.setHandlerDeadline(at: earliest)
    }

    // MARK: ConnectionHandler

    public func connection(_ connection: TCPConnection, didRead bytes: UnsafeRawBufferPointer) {
        // The loop's read buffer is scratch that the handler may overwrite (`ConnectionHandler`):
        // a server's frames are unmasked where they lie.
        consume(UnsafeMutableRawBufferPointer(mutating: bytes))
    }

    private func consume(_ bytes: UnsafeMutableRawBufferPointer) {
        var index = 0
        while index < bytes.count && state != .closed {
            // Whole small messages (what a client mostly gets) go to the delegate in place;
            // anything else (fragments, control frames, a frame cut by the read) is parsed
            // and buffered by the decoder, one frame at a time so the fast path resumes.
            if state == .open, let message = decoder.takeWholeMessage(bytes, at: &index) {
                connection.loop.metrics.webSocketMessagesIn.add(1, ordering: .relaxed)
                if message.isText {
                    delegate?.webSocket(self, didReceiveUTF8: message.payload)
                } else {
                    delegate?.webSocket(self, didReceiveBinary: Array(message.payload))
                }
                continue
            }
            decoder.feedFrame(UnsafeRawBufferPointer(bytes), at: &index)
            handleDecodedEvents()
        }
    }

    private func handleDecodedEvents() {
        while state != .closed, let event = decoder.next() {
            switch event {
            case .text(let text):
                guard state == .open else { continue }
                connection.loop.metrics.webSocketMessagesIn.add(1, ordering: .relaxed)
                delegate?.webSocket(self, didReceiveText: text)
            case .binary(let bytes):
                guard state == .open else { continue }
                connection.loop.metrics.webSocketMessagesIn.add(1, ordering: .relaxed)
                delegate?.webSocket(self, didReceiveBinary: bytes)
            case .ping(let payload):
                if state == .open { connection.write(encoder.pong(payload)) }
            case .pong:
                break
            case .close(let code, let reason):
                peerClosed(code: code ?? .noStatusReceived, reason: reason)
            case .protocolError(let code, let reason):
                failed(code: code, reason: reason)
            }
        }
    }

    private func peerClosed(code: WebSocketCloseCode, reason: String) {
        switch state {
        case .open:
            // Echo the code back (RFC 6455 §5.5.1), unless it may not be sent on the wire.
            let reply: WebSocketCloseCode? = code.isValidOnWire ? code : nil
            connection.write(encoder.close(code: reply, reason: ""))
            state = .closed
            closeCode = code
            closeReason = reason
            connection.close()
        case .closeSent:
            state = .closed
            connection.close()
        case .closed:
            return
        }
        reportClose()
    }

    private func failed(code: WebSocketCloseCode, reason: String) {
        guard state != .closed else { return }
        if state == .open { connection.write(encoder.close(code: code, reason: reason)) }
        state = .closed
        closeCode = code
        closeReason = reason
        connection.close()
        reportClose()
    }

    public func connectionShouldShutDown(_ connection: TCPConnection) {
        close(code: .goingAway, reason: "server shutting down")
    }

    public func connection(_ connection: TCPConnection, didCloseWith reason: ConnectionCloseReason) {
        state = .closed
        connection.loop.metrics.openWebSockets.subtract(1, ordering: .relaxed)
        reportClose()
    }

    private func reportClose() {
        guard !reportedClose else { return }
        reportedClose = true
        let delegate = self.delegate
        self.delegate = nil
        delegate?.webSocketDidClose(self, code: closeCode, reason: closeReason)
    }

    // MARK: Keep-alive

    /// The connection's handler deadline: the delegate's, the WebSocket's own, or both.
    public func connectionDeadlinePassed(_ connection: TCPConnection) {
        let now = loop.now
        if delegateDeadline != 0 && now >= delegateDeadline {
            delegateDeadline = 0
            if state == .open { delegate?.webSocketDeadlinePassed(self) }
        }
        if ownDeadline != 0 && now >= ownDeadline {
            ownDeadline = 0
            ownDeadlinePassed()
        }
        if state != .closed { fileDeadline() }
    }

    /// In the closing handshake, the peer's close is overdue; while open, the next ping is. A
    /// peer silent for the ping interval gets a ping (its pong is input); one that answers
    /// nothing meets the idle timeout.
    private func ownDeadlinePassed() {
        switch state {
        case .closeSent:
            connection.closeNow(.local)
        case .open:
            guard let interval = options.pingInterval else { return }
            let quiet = loop.now &- connection.lastReadTime
            if quiet >= interval.nanoseconds {
                connection.write(encoder.ping())
                setOwnDeadline(after: interval)
            } else {
                setOwnDeadline(after: .nanoseconds(Int64(interval.nanoseconds - quiet)))
            }
        case .closed:
            return
        }
    }
}
