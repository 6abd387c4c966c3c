/// An HTTP method. Unknown methods keep their text so a router can answer 405 or 501.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The method as sent, e.g. `"GET"`.
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let get = HTTPMethod(rawValue: "GET")
    public static let head = HTTPMethod(rawValue: "HEAD")
    public static let post = HTTPMethod(rawValue: "POST")
    public static let put = HTTPMethod(rawValue: "PUT")
    public static let patch = HTTPMethod(rawValue: "PATCH")
    public static let delete = HTTPMethod(rawValue: "DELETE")
    public static let options = HTTPMethod(rawValue: "OPTIONS")
    public static let connect = HTTPMethod(rawValue: "CONNECT")

    public var description: String { rawValue }
}

/// The HTTP version of a message.
public struct HTTPVersion: Hashable, Sendable, CustomStringConvertible {
    /// Major and minor version numbers.
    public var major: Int, minor: Int
    public init(major: Int, minor: Int) { self.major = major; self.minor = minor }
    public static let http1_0 = HTTPVersion(major: 1, minor: 0)
    public static let http1_1 = HTTPVersion(major: 1, minor: 1)
    public var description: String { "HTTP/\(major).\(minor)" }
}

/// The start line and headers of a request.
public struct HTTPRequestHead: Sendable, Equatable {
    /// The request method.
    public var method: HTTPMethod
    /// The request target exactly as sent (path and query, still percent-encoded).
    public var uri: String
    /// The protocol version.
    public var version: HTTPVersion
    /// The header fields.
    public var headers: HTTPHeaders

    public init(method: HTTPMethod, uri: String, version: HTTPVersion = .http1_1, headers: HTTPHeaders = [:]) {
        self.method = method
        self.uri = uri
        self.version = version
        self.headers = headers
    }

    /// The path part of `uri` (before `?`), still percent-encoded.
    public var path: Substring {
        uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
    }

    /// The query part of `uri` (after `?`), if any.
    public var query: Substring? {
        guard let mark = uri.firstIndex(of: "?") else { return nil }
        return uri[uri.index(after: mark)...]
    }

    /// Whether the connection stays open after this request (HTTP/1.1 default unless
    /// `Connection: close`; HTTP/1.0 only with `Connection: keep-alive`).
    public var keepAlive: Bool {
        if headers.containsToken("close", in: "Connection") { return false }
        if version == .http1_0 { return headers.containsToken("keep-alive", in: "Connection") }
        return version.major >= 1
    }
}

/// A complete request: head and body.
public struct HTTPRequest: Sendable, Equatable {
    /// Start line and headers.
    public var head: HTTPRequestHead
    /// The body, de-chunked; empty when there is none or when it went to `bodyFile`.
    public var body: [UInt8]
    /// The body written to disk as it arrived, for the routes `HTTPBodyStreaming` picks.
    public var bodyFile: HTTPBodyFile?

    public init(head: HTTPRequestHead, body: [UInt8] = [], bodyFile: HTTPBodyFile? = nil) {
        self.head = head
        self.body = body
        self.bodyFile = bodyFile
    }
}
