/// An HTTP status code with its reason phrase.
public struct HTTPStatus: Hashable, Sendable, CustomStringConvertible {
    /// The numeric code, e.g. 404.
    public let code: Int
    /// The reason phrase, e.g. "Not Found".
    public let reason: String

    public init(code: Int, reason: String) {
        self.code = code
        self.reason = reason
    }

    public static let switchingProtocols = HTTPStatus(code: 101, reason: "Switching Protocols")
    public static let ok = HTTPStatus(code: 200, reason: "OK")
    public static let created = HTTPStatus(code: 201, reason: "Created")
    public static let noContent = HTTPStatus(code: 204, reason: "No Content")
    public static let partialContent = HTTPStatus(code: 206, reason: "Partial Content")
    public static let notModified = HTTPStatus(code: 304, reason: "Not Modified")
    public static let badRequest = HTTPStatus(code: 400, reason: "Bad Request")
    public static let unauthorized = HTTPStatus(code: 401, reason: "Unauthorized")
    public static let forbidden = HTTPStatus(code: 403, reason: "Forbidden")
    public static let notFound = HTTPStatus(code: 404, reason: "Not Found")
    public static let methodNotAllowed = HTTPStatus(code: 405, reason: "Method Not Allowed")
    public static let requestTimeout = HTTPStatus(code: 408, reason: "Request Timeout")
    public static let conflict = HTTPStatus(code: 409, reason: "Conflict")
    public static let lengthRequired = HTTPStatus(code: 411, reason: "Length Required")
    public static let payloadTooLarge = HTTPStatus(code: 413, reason: "Payload Too Large")
    public static let uriTooLong = HTTPStatus(code: 414, reason: "URI Too Long")
    public static let unsupportedMediaType = HTTPStatus(code: 415, reason: "Unsupported Media Type")
    public static let rangeNotSatisfiable = HTTPStatus(code: 416, reason: "Range Not Satisfiable")
    public static let unprocessableContent = HTTPStatus(code: 422, reason: "Unprocessable Content")
    public static let upgradeRequired = HTTPStatus(code: 426, reason: "Upgrade Required")
    public static let tooManyRequests = HTTPStatus(code: 429, reason: "Too Many Requests")
    public static let misdirectedRequest = HTTPStatus(code: 421, reason: "Misdirected Request")
    public static let requestHeaderFieldsTooLarge = HTTPStatus(code: 431, reason: "Request Header Fields Too Large")
    public static let internalServerError = HTTPStatus(code: 500, reason: "Internal Server Error")
    public static let notImplemented = HTTPStatus(code: 501, reason: "Not Implemented")
    public static let serviceUnavailable = HTTPStatus(code: 503, reason: "Service Unavailable")
    public static let httpVersionNotSupported = HTTPStatus(code: 505, reason: "HTTP Version Not Supported")

    public var description: String { "\(code) \(reason)" }
}

/// A response: status, headers and a body that is sent as one `Content-Length` payload.
public struct HTTPResponse: Sendable {
    /// The status line's code and reason.
    public var status: HTTPStatus
    /// Header fields; `Content-Length` and `Connection` are set by the server when it writes.
    public var headers: HTTPHeaders
    /// The body bytes, shared (a cached static file is one chunk for every response).
    public var body: ByteChunk?
    /// A body read from a file piece by piece as it is sent, in place of `body`.
    public var bodyFile: HTTPResponseFile?

    public init(status: HTTPStatus, headers: HTTPHeaders = [:], body: ByteChunk? = nil) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A response whose body is streamed from `file`.
    public init(status: HTTPStatus, headers: HTTPHeaders = [:], file: HTTPResponseFile) {
        self.status = status
        self.headers = headers
        self.bodyFile = file
    }

    /// The size of the body, however it is held.
    public var bodyLength: Int { bodyFile?.length ?? body?.count ?? 0 }

    /// A response with a UTF-8 text body and its content type.
    public init(status: HTTPStatus, contentType: String, text: String, headers: HTTPHeaders = [:]) {
        var headers = headers
        headers.replaceOrAdd(name: "Content-Type", value: contentType)
        self.init(status: status, headers: headers, body: ByteChunk.of(string: text))
    }
}
