/// Why a decoder refused its input: the status to answer with and a stable reason.
///
/// A server that gets one of these answers with `status` (the reason can go in the body)
/// and closes the connection: the stream is no longer in a known state.
public struct HTTPDecodeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The status a server should answer with, e.g. 431.
    public let status: HTTPStatus
    /// A short snake_case reason for logs and error bodies, e.g. `"header_too_large"`.
    public let reason: String

    /// Creates an error with its status and reason.
    public init(status: HTTPStatus, reason: String) {
        self.status = status
        self.reason = reason
    }

    /// The request target is longer than `HTTPLimits.maxURILength` (414).
    public static let uriTooLong = HTTPDecodeError(status: .uriTooLong, reason: "uri_too_long")
    /// The head is longer than `HTTPLimits.maxHeaderBytes` (431).
    public static let headerTooLarge = HTTPDecodeError(status: .requestHeaderFieldsTooLarge, reason: "header_too_large")
    /// The head has more fields than `HTTPLimits.maxHeaderCount` (431).
    public static let tooManyHeaders = HTTPDecodeError(status: .requestHeaderFieldsTooLarge, reason: "too_many_headers")
    /// The body is, or is declared to be, larger than `HTTPLimits.maxBodyBytes` (413).
    public static let bodyTooLarge = HTTPDecodeError(status: .payloadTooLarge, reason: "body_too_large")
    /// A streamed body could not be written to its file (a full disk, a missing directory):
    /// 500, and the partial file is removed.
    public static let bodyNotStored = HTTPDecodeError(status: .internalServerError, reason: "body_not_stored")
    /// The HTTP version is neither 1.0 nor 1.1 (505).
    public static let versionNotSupported = HTTPDecodeError(status: .httpVersionNotSupported, reason: "version_not_supported")
    /// A header field name that is not an RFC 9110 token, e.g. one with a space (400).
    /// http_parser lets these through; refusing them closes a request-smuggling door.
    public static let invalidHeaderName = HTTPDecodeError(status: .badRequest, reason: "invalid_header_name")

    /// A header field value with a control character other than tab, e.g. NUL (400).
    /// http_parser refuses them everywhere but in a value's first byte; RFC 9110 §5.5 calls
    /// CR, LF and NUL in a value dangerous and has a recipient refuse or replace them.
    public static let invalidHeaderValue = HTTPDecodeError(status: .badRequest, reason: "invalid_header_value")

    /// Malformed input (400) with a detail, e.g. `malformed("invalid_method")`.
    public static func malformed(_ detail: String) -> HTTPDecodeError {
        HTTPDecodeError(status: .badRequest, reason: detail)
    }

    /// The status code and reason, e.g. `431 header_too_large`, for logs.
    public var description: String { "\(status.code) \(reason)" }
}
