/// What one `HTTPRequestDecoder.feed(_:)` call produced.
public struct HTTPDecoderOutput: Sendable, Equatable {
    /// How the request stream ended, when it did.
    public enum Terminal: Sendable, Equatable {
        /// The request asks to switch protocols (e.g. a WebSocket handshake, or `CONNECT`).
        /// `leftover` holds every byte that came after it: they belong to the new protocol.
        case upgrade(HTTPRequest, leftover: [UInt8])
        /// The input broke a rule or a limit; answer with `error.status` and close.
        case failure(HTTPDecodeError)
    }

    /// The requests completed by this feed, in the order they arrived. Requests that a
    /// client pipelined come out together; answer them in this order.
    public var requests: [HTTPRequest]
    /// Set when the stream ended here; the decoder then ignores further input.
    public var terminal: Terminal?
    /// Set when a streamed body waits for `HTTPBodyStreaming.admission`: the decoder takes
    /// no more input until `admit()` or `refuseAdmission()`.
    public var awaitingAdmission: HTTPRequestHead?

    /// Creates an output.
    public init(requests: [HTTPRequest] = [], terminal: Terminal? = nil, awaitingAdmission: HTTPRequestHead? = nil) {
        self.requests = requests
        self.terminal = terminal
        self.awaitingAdmission = awaitingAdmission
    }
}
