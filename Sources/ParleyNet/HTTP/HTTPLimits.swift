/// The hard limits an HTTP decoder enforces on what a peer may send.
///
/// Every limit exists so that one connection cannot make the server hold unbounded memory;
/// each refusal maps to its own status code (see `HTTPDecodeError`).
public struct HTTPLimits: Sendable, Equatable {
    /// The most bytes the head may take: request (or status) line, header lines and the
    /// blank line that ends them, each line's CRLF included. Over it: 431.
    public var maxHeaderBytes: Int
    /// The most header fields a head may carry. Over it: 431.
    public var maxHeaderCount: Int
    /// The longest request target, in bytes as sent (still percent-encoded). Over it: 414.
    public var maxURILength: Int
    /// The largest request body: the declared `Content-Length`, or the de-chunked bytes of
    /// a chunked body. Over it: 413.
    public var maxBodyBytes: Int

    /// Creates limits; the defaults suit an API and WebSocket server.
    public init(
        maxHeaderBytes: Int = 16 * 1024,
        maxHeaderCount: Int = 100,
        maxURILength: Int = 8 * 1024,
        maxBodyBytes: Int = 1024 * 1024
    ) {
        self.maxHeaderBytes = maxHeaderBytes
        self.maxHeaderCount = maxHeaderCount
        self.maxURILength = maxURILength
        self.maxBodyBytes = maxBodyBytes
    }
}
