import Foundation
import ParleyNet
import ParleyProtocol

/// One HTTP request as an API handler sees it.
struct APIRequest: Sendable {
    let http: HTTPRequest
    /// Path parameters of the matched route (`:id` → `"id"`).
    let parameters: [String: String]
    let context: HTTPRequestContext

    /// The client's address without the port, for per-address limits: the peer's, or what a
    /// proxy of `--trusted-proxies` forwarded for.
    var clientAddress: String { context.clientAddress }

    /// The `User-Agent` header, if any.
    var userAgent: String? { http.head.headers[first: "User-Agent"] }

    /// The first value of query parameter `name`, percent-decoded; nil if absent or malformed.
    func queryItem(_ name: String) -> String? {
        guard let query = http.head.query, let items = PercentDecoding.parseQuery(query) else { return nil }
        return items.first { $0.name == name }?.value
    }

    /// The token of `Authorization: Bearer <token>`, if present.
    var bearerToken: String? { Self.bearerToken(in: http.head.headers) }

    /// The token of `Authorization: Bearer <token>` in `headers`, if present (also for
    /// checks made on a request's head before its body, `IncomingUploads.admit`).
    static func bearerToken(in headers: HTTPHeaders) -> String? {
        guard let value = headers[first: "Authorization"] else { return nil }
        let parts = value.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        return String(parts[1].trimmingCharacters(in: .whitespaces))
    }

    /// The JSON body decoded as `T`, or the protocol's error for what is wrong with it. The
    /// body must be labelled `application/json`: a browser sends a cross-site form (a
    /// "simple" request, no preflight) only as form data or plain text, so this label is
    /// what keeps another site's page from posting to sign-in and registration.
    func decodeBody<T: Decodable>(_ type: T.Type) throws(ProtocolError) -> T {
        let contentType = http.head.headers[first: "Content-Type"] ?? ""
        let mediaType = contentType.split(separator: ";", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        guard mediaType == "application/json" else {
            throw ProtocolError(.unsupportedMediaType, "send the body as JSON with Content-Type: application/json")
        }
        return try JSONCoding.decode(type, from: http.body)
    }
}
