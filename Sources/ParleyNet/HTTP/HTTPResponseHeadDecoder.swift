import CHTTPParser

/// Reads the status line and headers of a response, for the client side of a WebSocket
/// handshake: what follows the head is not HTTP, so it is handed back untouched.
///
/// Feed it the bytes the server sends until it returns `.head` or `.failure`. The same
/// header limits as for requests apply (`maxHeaderBytes`, `maxHeaderCount`). Used on one
/// thread; not `Sendable`.
public final class HTTPResponseHeadDecoder {
    /// The outcome of one feed.
    public enum Result: Sendable, Equatable {
        /// The head is not complete yet.
        case needMoreData
        /// The head is complete. `leftover` holds the bytes that came after it (for a
        /// WebSocket handshake: the first frames). A body, if any, is in `leftover` too.
        case head(status: Int, headers: HTTPHeaders, leftover: [UInt8])
        /// The response is malformed or over a limit.
        case failure(HTTPDecodeError)
    }

    enum State {
        case reading
        case done
        case failed(HTTPDecodeError)
    }

    /// Returned when `feed` is called again after the head came out.
    public static let finished = HTTPDecodeError(status: .internalServerError, reason: "decoder_finished")

    /// The limits this decoder enforces (only the header ones apply).
    public let limits: HTTPLimits

    private let parser: UnsafeMutablePointer<http_parser>
    var state = State.reading
    var pendingError: HTTPDecodeError?
    var fields: HTTPHeaderAccumulator
    /// Set by `on_headers_complete`: the headers, or what is wrong with the head.
    var completedHead: Swift.Result<HTTPHeaders, HTTPDecodeError>?
    private var position = 0
    var executeBase: UnsafePointer<CChar>?
    var executeBasePosition = 0

    /// Creates a decoder that enforces the header limits of `limits`.
    public init(limits: HTTPLimits = HTTPLimits()) {
        self.limits = limits
        self.fields = HTTPHeaderAccumulator(maxCount: limits.maxHeaderCount)
        parser = UnsafeMutablePointer<http_parser>.allocate(capacity: 1)
        http_parser_init(parser, HTTP_RESPONSE)
        // Unretained: the decoder owns the parser, so it outlives every callback.
        parser.pointee.data = Unmanaged.passUnretained(self).toOpaque()
    }

    deinit {
        parser.deallocate()
    }

    /// Parses `bytes`, which follow those of the previous feed.
    public func feed(_ bytes: UnsafeRawBufferPointer) -> Result {
        switch state {
        case .done: return .failure(Self.finished)
        case .failed(let error): return .failure(error)
        case .reading: break
        }
        // An empty buffer would tell http_parser the connection ended: never pass one.
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return .needMoreData }
        let chars = base.assumingMemoryBound(to: CChar.self)
        executeBase = chars
        executeBasePosition = position
        let consumed = withUnsafePointer(to: Self.settings) { settings in
            http_parser_execute(parser, settings, chars, bytes.count)
        }
        executeBase = nil
        position += consumed

        if let error = pendingError { return fail(error) }
        let errno = parser.pointee.http_errno
        if errno != HPE_OK.rawValue { return fail(HTTPDecodeError(parserErrno: errno)) }
        // The size first, then anything else wrong with a complete head (the request
        // decoder's order): were the version judged first, a long head of another version
        // would get 505 or 431 depending on whether it ended inside this read.
        // `on_headers_complete` asked http_parser to stop after the head, so `consumed`
        // ends exactly there.
        if position > limits.maxHeaderBytes { return fail(.headerTooLarge) }
        switch completedHead {
        case nil:
            return .needMoreData
        case .failure(let error)?:
            return fail(error)
        case .success(let headers)?:
            state = .done
            completedHead = nil
            return .head(status: Int(parser.pointee.status_code), headers: headers, leftover: Array(bytes[consumed...]))
        }
    }

    /// Convenience for callers holding an array.
    public func feed(_ bytes: [UInt8]) -> Result {
        bytes.withUnsafeBytes { feed($0) }
    }

    private func fail(_ error: HTTPDecodeError) -> Result {
        state = .failed(error)
        completedHead = nil
        fields = HTTPHeaderAccumulator(maxCount: limits.maxHeaderCount)
        return .failure(error)
    }

    /// Whether the head, up to `end` in the current buffer, still fits the byte limit.
    private func headFits(upTo end: UnsafePointer<CChar>) -> Bool {
        guard let executeBase else { return true }
        return executeBasePosition + (end - executeBase) <= limits.maxHeaderBytes
    }

    private func refuse(_ error: HTTPDecodeError) -> Int32 {
        pendingError = error
        return 1
    }

    private func headPiece(_ piece: UnsafeRawBufferPointer, isName: Bool, isValue: Bool) -> Int32 {
        if let start = piece.baseAddress,
           !headFits(upTo: start.assumingMemoryBound(to: CChar.self) + piece.count) {
            return refuse(.headerTooLarge)
        }
        if isName, let error = fields.appendName(piece) { return refuse(error) }
        if isValue, let error = fields.appendValue(piece) { return refuse(error) }
        return 0
    }

    private func headersComplete() -> Int32 {
        if parser.pointee.http_major == 1, parser.pointee.http_minor <= 1 {
            completedHead = fields.finish()
        } else {
            completedHead = .failure(.versionNotSupported)
        }
        // 2: no body and no further messages, so http_parser returns right after the head,
        // where `feed` judges it.
        return 2
    }

    private static func from(_ parser: UnsafeMutablePointer<http_parser>?) -> HTTPResponseHeadDecoder? {
        guard let data = parser?.pointee.data else { return nil }
        return Unmanaged<HTTPResponseHeadDecoder>.fromOpaque(data).takeUnretainedValue()
    }

    static let settings: http_parser_settings = {
        var settings = http_parser_settings()
        http_parser_settings_init(&settings)
        settings.on_status = { parser, at, length in
            guard let decoder = from(parser), let at else { return 1 }
            return decoder.headPiece(UnsafeRawBufferPointer(start: at, count: length), isName: false, isValue: false)
        }
        settings.on_header_field = { parser, at, length in
            guard let decoder = from(parser), let at else { return 1 }
            return decoder.headPiece(UnsafeRawBufferPointer(start: at, count: length), isName: true, isValue: false)
        }
        settings.on_header_value = { parser, at, length in
            guard let decoder = from(parser), let at else { return 1 }
            return decoder.headPiece(UnsafeRawBufferPointer(start: at, count: length), isName: false, isValue: true)
        }
        settings.on_headers_complete = { parser in
            guard let decoder = from(parser) else { return -1 }
            return decoder.headersComplete()
        }
        return settings
    }()
}
