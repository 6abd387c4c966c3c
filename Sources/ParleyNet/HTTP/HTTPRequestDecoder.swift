import CHTTPParser

/// Turns the bytes of an HTTP/1.1 connection into requests, using http_parser.
///
/// Feed it whatever each read returned: a request may be split anywhere across feeds, and
/// one feed may hold many pipelined requests. Every limit in `HTTPLimits` is enforced while
/// bytes arrive, so no refusal needs the whole offending input in memory.
///
/// One decoder per connection, used on one thread (the connection's event loop); it is not
/// `Sendable`. Between requests it holds a few hundred bytes at most.
public final class HTTPRequestDecoder {
    /// Where the decoder is in the stream.
    enum State {
        /// Between requests: no byte of the next one seen yet.
        case idle
        /// Inside a request line and its headers.
        case head
        /// Headers done; reading the body (possibly empty) of this request.
        case body(HTTPRequestHead)
        /// Headers of a streamed body done; waiting for the admission before reading it.
        case admitting(HTTPRequestHead, limit: Int)
        /// A request did not keep the connection alive; later bytes are ignored (RFC 9112
        /// §9.6: the server processes nothing after it).
        case closed
        /// A request switched protocols; later bytes are not HTTP.
        case upgraded(HTTPRequest)
        /// The input was refused.
        case failed
    }

    /// Why a callback paused the parser: at those points `feed` needs the exact stream
    /// position, which only the return value of `http_parser_execute` tells, or must act
    /// on the parser outside a callback.
    enum PausePoint {
        case none
        case messageBegan
        case headersComplete
        /// A message ended that http_parser alone would have closed the connection after,
        /// but Parley keeps it open: the parser must start afresh to read the next one.
        case messageCompleteKeptAlive
    }

    /// The limits this decoder enforces.
    public let limits: HTTPLimits
    /// Which bodies go to a file instead of memory; nil: none.
    public let streaming: HTTPBodyStreaming?
    /// The file the current request's body is going to, when it is streamed.
    var bodyFile: HTTPBodyFileWriter?
    /// What arrived after a head that waits for admission: at most one read's worth, since
    /// the connection stops reading meanwhile. Parsed once the body is admitted.
    private var heldBytes: [UInt8] = []

    private let parser: UnsafeMutablePointer<http_parser>
    var state = State.idle
    var pausePoint = PausePoint.none
    /// Set by a callback that refuses input; the callback then fails the parser.
    var pendingError: HTTPDecodeError?
    var completed: [HTTPRequest] = []

    // The request being read.
    var uri: [UInt8] = []
    var fields: HTTPHeaderAccumulator
    var body: [UInt8] = []
    var trailerBytes = 0
    /// Stream position of the first byte of the current request's head.
    var headStart = 0

    /// Bytes the parser consumed over all feeds.
    private var position = 0
    /// The start of the bytes passed to the running `http_parser_execute` call and its
    /// stream position, so that a callback can tell where its data ends in the stream.
    var executeBase: UnsafePointer<CChar>?
    var executeBasePosition = 0

    /// Creates a decoder that enforces `limits`.
    public init(limits: HTTPLimits = HTTPLimits(), streaming: HTTPBodyStreaming? = nil) {
        self.limits = limits
        self.streaming = streaming
        self.fields = HTTPHeaderAccumulator(maxCount: limits.maxHeaderCount)
        parser = UnsafeMutablePointer<http_parser>.allocate(capacity: 1)
        http_parser_init(parser, HTTP_REQUEST)
        // Unretained: the decoder owns the parser, so it outlives every callback.
        parser.pointee.data = Unmanaged.passUnretained(self).toOpaque()
    }

    deinit {
        bodyFile?.abort()
        parser.deallocate()
    }

    /// The connection is gone: a body being streamed will never be whole, so its file goes.
    public func close() {
        bodyFile?.abort()
        bodyFile = nil
    }

    /// True after an upgrade, a failure, or a request that closes the connection: the
    /// decoder parses no more input. A caller can tell from it whether the connection's
    /// fate was decided by the decoder or is still up to the responses.
    public var isFinished: Bool {
        switch state {
        case .closed, .upgraded, .failed: true
        case .idle, .head, .body, .admitting: false
        }
    }

    /// How far the current request has come, for deadlines on slow peers.
    public enum Progress: Equatable, Sendable {
        /// No byte of a next request yet (or no more requests will be read).
        case betweenRequests
        /// Inside a request line and its headers.
        case head
        /// Reading a body: how many of its bytes have arrived.
        case body(bytes: Int)
    }

    /// Where the request being read stands.
    public var progress: Progress {
        switch state {
        case .head: .head
        case .body: .body(bytes: bodyFile?.size ?? body.count)
        case .admitting: .body(bytes: 0)
        case .idle, .closed, .upgraded, .failed: .betweenRequests
        }
    }

    /// Parses `bytes`, which follow those of the previous feed.
    ///
    /// Returns the requests completed by these bytes and, if the stream ended here, how.
    /// After an upgrade, a failure, or a request that closes the connection, further
    /// feeds are ignored and return an empty output.
    public func feed(_ bytes: UnsafeRawBufferPointer) -> HTTPDecoderOutput {
        switch state {
        case .closed, .upgraded, .failed: return HTTPDecoderOutput()
        case .admitting:
            heldBytes.append(contentsOf: bytes)
            return HTTPDecoderOutput()
        case .idle, .head, .body: break
        }
        // An empty buffer would tell http_parser the connection ended: never pass one.
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return HTTPDecoderOutput() }
        let chars = base.assumingMemoryBound(to: CChar.self)
        var offset = 0
        var terminal: HTTPDecoderOutput.Terminal?
        var awaiting: HTTPRequestHead?

        feeding: while offset < bytes.count {
            executeBase = chars + offset
            executeBasePosition = position
            let consumed = withUnsafePointer(to: Self.settings) { settings in
                http_parser_execute(parser, settings, chars + offset, bytes.count - offset)
            }
            offset += consumed
            position += consumed

            if let error = pendingError {
                terminal = fail(error)
                break
            }
            let errno = parser.pointee.http_errno
            if errno == HPE_PAUSED.rawValue {
                http_parser_pause(parser, 0)
                let point = pausePoint
                pausePoint = .none
                switch point {
                case .messageBegan:
                    // The first byte of the request line was consumed before the pause.
                    headStart = position - 1
                case .headersComplete:
                    // The pause comes before the head's final LF is consumed.
                    if let error = headersComplete(headEnd: position + 1) {
                        terminal = fail(error)
                        break feeding
                    }
                    if case .admitting(let head, _) = state {
                        // Nothing after the head is parsed (or written) before the admission.
                        heldBytes = Array(bytes[offset...])
                        awaiting = head
                        break feeding
                    }
                case .messageCompleteKeptAlive:
                    // http_parser has already moved to its dead state, in which any further
                    // byte is an error; a fresh parser is exactly a parser between messages.
                    http_parser_init(parser, HTTP_REQUEST)
                case .none:
                    break
                }
                if case .closed = state { break }
                continue
            }
            if errno != HPE_OK.rawValue {
                terminal = fail(HTTPDecodeError(parserErrno: errno))
                break
            }
            if case .upgraded(let request) = state {
                terminal = .upgrade(request, leftover: Array(bytes[offset...]))
                break
            }
        }
        executeBase = nil

        if terminal == nil, case .head = state, position - headStart > limits.maxHeaderBytes {
            terminal = fail(.headerTooLarge)
        }
        let output = HTTPDecoderOutput(requests: completed, terminal: terminal, awaitingAdmission: awaiting)
        completed = []
        return output
    }

    /// The streamed body waiting for admission may come: its file is made and what arrived
    /// after its head is parsed now.
    public func admit() -> HTTPDecoderOutput {
        guard case .admitting(let head, let limit) = state, let streaming else { return HTTPDecoderOutput() }
        guard let writer = HTTPBodyFileWriter(directory: streaming.directory, limit: limit) else {
            return HTTPDecoderOutput(terminal: fail(.bodyNotStored))
        }
        bodyFile = writer
        state = .body(head)
        let held = heldBytes
        heldBytes = []
        return feed(held)
    }

    /// The streamed body waiting for admission was refused: nothing more is parsed.
    public func refuseAdmission() {
        guard case .admitting = state else { return }
        heldBytes = []
        state = .failed
    }

    /// Convenience for tests and callers holding an array.
    public func feed(_ bytes: [UInt8]) -> HTTPDecoderOutput {
        bytes.withUnsafeBytes { feed($0) }
    }

    private func fail(_ error: HTTPDecodeError) -> HTTPDecoderOutput.Terminal {
        state = .failed
        // Drop what the broken request collected; the decoder will not be used again.
        uri = []
        body = []
        heldBytes = []
        bodyFile?.abort()
        bodyFile = nil
        fields = HTTPHeaderAccumulator(maxCount: limits.maxHeaderCount)
        return .failure(error)
    }

    /// Checks the finished head against the limits and turns it into a request head.
    private func headersComplete(headEnd: Int) -> HTTPDecodeError? {
        guard case .head = state else { return .malformed("unexpected_state") }
        if headEnd - headStart > limits.maxHeaderBytes { return .headerTooLarge }

        let major = Int(parser.pointee.http_major)
        let minor = Int(parser.pointee.http_minor)
        guard major == 1, minor == 0 || minor == 1 else { return .versionNotSupported }

        let headers: HTTPHeaders
        switch fields.finish() {
        case .success(let value): headers = value
        case .failure(let error): return error
        }

        let methodName = http_method_str(http_method(rawValue: UInt32(parser.pointee.method)))
            .map { String(cString: $0) } ?? "UNKNOWN"
        let head = HTTPRequestHead(
            method: HTTPMethod(rawValue: methodName),
            uri: String(decoding: uri, as: UTF8.self),
            version: HTTPVersion(major: major, minor: minor),
            headers: headers
        )
        // An upload route's body goes to a file, under that route's own limit.
        let streamLimit = parser.pointee.upgrade == 0 ? streaming.flatMap { $0.limit(head) } : nil

        // http_parser sets the Content-Length flag only when the header was present, and
        // `content_length` is already parsed (overflow is its own error). Refused here, the
        // client hears 413 before it sends a byte of a body that could never fit.
        let flags = UInt32(parser.pointee.flags)
        if flags & UInt32(F_CONTENTLENGTH.rawValue) != 0 {
            let declared = parser.pointee.content_length
            if declared > UInt64(streamLimit ?? limits.maxBodyBytes) { return .bodyTooLarge }
            // Reserve a little, not all: a client that declares a large body and then
            // stalls should not make the server hold that much memory.
            if streamLimit == nil { body.reserveCapacity(min(Int(declared), 64 * 1024)) }
        }
        if let streamLimit, streaming?.admission != nil {
            uri = []
            state = .admitting(head, limit: streamLimit)
            return nil
        }
        if let streamLimit, let streaming {
            guard let writer = HTTPBodyFileWriter(directory: streaming.directory, limit: streamLimit) else {
                return .bodyNotStored
            }
            bodyFile = writer
        }
        uri = []
        state = .body(head)
        return nil
    }

    /// Called by `on_message_complete`; returns whether parsing goes on.
    func messageComplete() -> Bool {
        guard case .body(let head) = state else {
            pendingError = .malformed("unexpected_state")
            return false
        }
        var request = HTTPRequest(head: head, body: body)
        body = []
        if let writer = bodyFile {
            bodyFile = nil
            guard let file = writer.finish() else {
                pendingError = .bodyNotStored
                return false
            }
            request.bodyFile = file
        }
        trailerBytes = 0
        if parser.pointee.upgrade != 0 {
            // http_parser stops right after this message and returns the offset of the
            // first byte of the new protocol.
            state = .upgraded(request)
            return true
        }
        completed.append(request)
        // Stop exactly where the server closes, which it decides from `head.keepAlive`
        // (RFC 9112 §9.3). http_parser's own rule differs in corners: it counts
        // `Proxy-Connection: close` (so it would stop while the server keeps the connection
        // open and never answers what comes next), and lets HTTP/1.0's keep-alive win over
        // `close` or misses `close` among empty list elements (so it would read requests
        // the server then drops).
        if !head.keepAlive {
            state = .closed
            http_parser_pause(parser, 1)
        } else {
            state = .idle
            if http_should_keep_alive(parser) == 0 {
                pausePoint = .messageCompleteKeptAlive
                http_parser_pause(parser, 1)
            }
        }
        return true
    }

    /// Called by `on_message_begin`.
    func messageBegan() {
        state = .head
        uri = []
        body = []
        bodyFile?.abort()
        bodyFile = nil
        trailerBytes = 0
        fields = HTTPHeaderAccumulator(maxCount: limits.maxHeaderCount)
        pausePoint = .messageBegan
        http_parser_pause(parser, 1)
    }

    /// Called by `on_headers_complete`.
    func headersCompleted() {
        pausePoint = .headersComplete
        http_parser_pause(parser, 1)
    }

    /// Whether the head, up to `end` in the current buffer, still fits the byte limit.
    func headFits(upTo end: UnsafePointer<CChar>) -> Bool {
        guard let executeBase else { return true }
        let endPosition = executeBasePosition + (end - executeBase)
        return endPosition - headStart <= limits.maxHeaderBytes
    }
}
