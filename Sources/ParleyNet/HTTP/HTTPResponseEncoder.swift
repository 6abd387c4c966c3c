/// Writes the head of an `HTTPResponse`: status line and header fields.
///
/// The body is not copied into the head: the caller queues `response.body` (a shared
/// `ByteChunk`) after it, unless `sendsBody(status:headRequest:)` says not to.
public enum HTTPResponseEncoder {
    /// The bytes of the response head, ending with the blank line.
    ///
    /// - `Content-Length` is set from the body's size, except: not at all for 1xx and 204
    ///   (which have no body), not when the caller set `Transfer-Encoding`, and left as the
    ///   caller set it for 304 and, when `headRequest` is true, for HEAD responses (whose
    ///   body is never sent, so a `StaticFiles` HEAD response can declare the file size
    ///   without reading the file). A HEAD response that carries the GET body works too.
    /// - `Connection: close` is added when `keepAlive` is false, and `Connection:
    ///   keep-alive` when an HTTP/1.0 client's connection stays open (1.0 closes otherwise).
    /// - `Date` is added unless the response has one.
    /// - CR, LF and NUL in the reason phrase and in values become spaces, and fields whose
    ///   name is not a token are dropped, so no value can inject a header or end the head.
    ///
    /// - Parameters:
    ///   - response: the status, headers and body (only the body's size is used here).
    ///   - keepAlive: whether the connection stays open after this response.
    ///   - headRequest: whether this answers a HEAD request.
    ///   - requestVersion: the version of the request being answered.
    public static func encodeHead(
        _ response: HTTPResponse,
        keepAlive: Bool,
        headRequest: Bool = false,
        requestVersion: HTTPVersion = .http1_1
    ) -> [UInt8] {
        var headers = response.headers
        let code = response.status.code
        if (100..<200).contains(code) || code == 204 {
            headers.remove(name: "Content-Length")
            headers.remove(name: "Transfer-Encoding")
        } else if headers[first: "Transfer-Encoding"] != nil {
            // Both would let a proxy and the client disagree on where the body ends.
            headers.remove(name: "Content-Length")
        } else if code == 304 || (headRequest && headers[first: "Content-Length"] != nil) {
            // The caller's value describes the body the request would have got.
        } else {
            headers.replaceOrAdd(name: "Content-Length", value: String(response.bodyLength))
        }

        if !keepAlive {
            headers.replaceOrAdd(name: "Connection", value: "close")
        } else if requestVersion == .http1_0 && headers[first: "Connection"] == nil {
            headers.add(name: "Connection", value: "keep-alive")
        }
        if headers[first: "Date"] == nil {
            headers.add(name: "Date", value: HTTPDate.now())
        }

        var out: [UInt8] = []
        out.reserveCapacity(64 + headers.fields.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 })
        out.append(contentsOf: "HTTP/1.1 \(code) ".utf8)
        appendSanitized(response.status.reason, to: &out)
        out.append(contentsOf: [0x0D, 0x0A])
        for field in headers where !field.name.isEmpty && field.name.utf8.allSatisfy(HTTPHeaderAccumulator.isTokenByte) {
            out.append(contentsOf: field.name.utf8)
            out.append(contentsOf: [UInt8(ascii: ":"), UInt8(ascii: " ")])
            appendSanitized(field.value, to: &out)
            out.append(contentsOf: [0x0D, 0x0A])
        }
        out.append(contentsOf: [0x0D, 0x0A])
        return out
    }

    /// Whether a response with `status` carries its body on the wire: never for HEAD
    /// requests, 1xx, 204 and 304 (RFC 9110 §6.4.1).
    public static func sendsBody(status: HTTPStatus, headRequest: Bool) -> Bool {
        !(headRequest || (100..<200).contains(status.code) || status.code == 204 || status.code == 304)
    }

    private static func appendSanitized(_ text: String, to out: inout [UInt8]) {
        for byte in text.utf8 {
            out.append(byte == 0x0D || byte == 0x0A || byte == 0 ? UInt8(ascii: " ") : byte)
        }
    }
}
