import Foundation
import ParleyNet
import ParleyProtocol

/// JSON in and out of the API, and errors as the protocol describes them.
enum JSONCoding {
    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return encoder
    }

    /// Decodes a request body, turning decoding failures into field-level protocol errors.
    static func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws(ProtocolError) -> T {
        guard !bytes.isEmpty else { throw ProtocolError(.badRequest, "the request needs a JSON body") }
        do {
            return try JSONDecoder().decode(type, from: Data(bytes))
        } catch let DecodingError.keyNotFound(key, _) {
            throw ProtocolError(.missingField, "the field '\(key.stringValue)' is required", field: key.stringValue)
        } catch let DecodingError.typeMismatch(_, context) {
            let field = context.codingPath.last?.stringValue
            throw ProtocolError(.invalidField, "the field '\(field ?? "?")' has the wrong type", field: field)
        } catch let DecodingError.valueNotFound(_, context) {
            let field = context.codingPath.last?.stringValue
            throw ProtocolError(.invalidField, "the field '\(field ?? "?")' may not be null", field: field)
        } catch let DecodingError.dataCorrupted(context) where !context.codingPath.isEmpty {
            let field = context.codingPath.last?.stringValue
            throw ProtocolError(.invalidField, "the field '\(field ?? "?")' has an invalid value", field: field)
        } catch {
            throw ProtocolError(.badRequest, "the body is not valid JSON of the expected shape")
        }
    }

    /// A JSON response.
    static func response<T: Encodable>(_ status: HTTPStatus, _ value: T) -> HTTPResponse {
        let body = (try? encoder().encode(value)) ?? Data("{}".utf8)
        return HTTPResponse(status: status, headers: ["Content-Type": "application/json; charset=utf-8",
                                                      "Cache-Control": "no-store"],
                            body: ByteChunk.of(body))
    }

    /// The protocol's error body with the code's status (and `Retry-After` for rate limits).
    static func errorResponse(_ error: ProtocolError) -> HTTPResponse {
        var response = self.response(HTTPStatus(code: error.code.httpStatus, reason: reasonPhrase(error.code.httpStatus)),
                                     ErrorBody(error: error))
        if let retry = error.retryAfterSeconds {
            response.headers.replaceOrAdd(name: "Retry-After", value: String(retry))
        }
        return response
    }

    static func reasonPhrase(_ code: Int) -> String {
        switch code {
        case 200: return "OK"
        case 201: return "Created"
        case 204: return "No Content"
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 408: return "Request Timeout"
        case 409: return "Conflict"
        case 413: return "Payload Too Large"
        case 414: return "URI Too Long"
        case 415: return "Unsupported Media Type"
        case 416: return "Range Not Satisfiable"
        case 421: return "Misdirected Request"
        case 426: return "Upgrade Required"
        case 429: return "Too Many Requests"
        case 431: return "Request Header Fields Too Large"
        case 500: return "Internal Server Error"
        case 501: return "Not Implemented"
        case 502: return "Bad Gateway"
        case 503: return "Service Unavailable"
        case 505: return "HTTP Version Not Supported"
        default: return "Status \(code)"
        }
    }

    /// The protocol error for a status the HTTP layer chose.
    static func error(forStatus status: HTTPStatus, reason: String) -> ProtocolError {
        let code: ErrorCode
        switch status.code {
        case 403: code = .forbidden
        case 404: code = .notFound
        case 405: code = .methodNotAllowed
        case 408: code = .requestTimeout
        case 415: code = .unsupportedMediaType
        case 421: code = .misdirectedRequest
        case 413: code = .payloadTooLarge
        case 414: code = .uriTooLong
        case 426: code = .upgradeRequired
        case 431: code = .headersTooLarge
        case 505: code = .httpVersionNotSupported
        case 501: code = .unsupportedUpgrade
        case 500...: code = .internalError
        default: code = .badRequest
        }
        return ProtocolError(code, reason.replacingOccurrences(of: "_", with: " "))
    }
}
