import ParleyNet

/// `http-response-head`: `HTTPResponseHeadDecoder` (the client side of a WebSocket
/// handshake) on arbitrary bytes, and `WebSocketHandshake.validateResponse` on what it reads.
///
/// Invariants: fed whole and fed in pieces, the result is the same (the leftover of a split
/// feed completed with the pieces after it); the header limits hold; the result sticks (a
/// feed after it answers `finished` or the same failure); a response the handshake accepts
/// is a 101 that carries exactly the expected `Sec-WebSocket-Accept`.
///
/// As for requests, a head that breaks several rules may be refused with 400 or 431
/// depending on where reads end (see `HTTPRequestHarness`).
enum HTTPResponseHeadHarness {
    static let limits = HTTPLimits(maxHeaderBytes: 512, maxHeaderCount: 8)
    /// The key of RFC 6455 §1.3's example, so that its sample response is accepted.
    static let key = "dGhlIHNhbXBsZSBub25jZQ=="

    static func run(_ bytes: [UInt8]) throws(InvariantFailure) {
        _ = HTTPResponseHeadDecoder().feed(bytes)

        let whole = try decode([bytes[...]])
        try check(whole)
        for pieces in InputSplitter.splits(bytes) {
            let split = try decode(pieces)
            try InvariantFailure.expect(agree(split, whole), "fed in \(pieces.count) pieces: \(split), fed whole: \(whole)")
        }
    }

    /// Whether two results of the same bytes agree, up to the choice between head refusals.
    static func agree(_ a: HTTPResponseHeadDecoder.Result, _ b: HTTPResponseHeadDecoder.Result) -> Bool {
        if a == b { return true }
        guard case .failure(let first) = a, case .failure(let second) = b else { return false }
        return HTTPRequestHarness.headRefusals.contains(first.status.code) && HTTPRequestHarness.headRefusals.contains(second.status.code)
    }

    static func decode(_ pieces: [ArraySlice<UInt8>]) throws(InvariantFailure) -> HTTPResponseHeadDecoder.Result {
        let decoder = HTTPResponseHeadDecoder(limits: limits)
        var result = HTTPResponseHeadDecoder.Result.needMoreData
        for piece in pieces {
            switch result {
            case .needMoreData:
                result = decoder.feed(Array(piece))
            case .head(let status, let headers, let leftover):
                result = .head(status: status, headers: headers, leftover: leftover + piece)
            case .failure:
                break
            }
        }
        // Whatever came out stays the answer.
        let again = decoder.feed([UInt8]("HTTP/1.1 200 OK\r\n\r\n".utf8))
        switch result {
        case .needMoreData:
            break
        case .head:
            try InvariantFailure.expect(again == .failure(HTTPResponseHeadDecoder.finished), "a feed after the head gave \(again)")
        case .failure:
            try InvariantFailure.expect(again == result, "a feed after a failure gave \(again), not \(result)")
        }
        return result
    }

    static func check(_ result: HTTPResponseHeadDecoder.Result) throws(InvariantFailure) {
        guard case .head(let status, let headers, _) = result else { return }
        try InvariantFailure.expect((0...999).contains(status), "status \(status)")
        try InvariantFailure.expect(headers.count <= limits.maxHeaderCount, "\(headers.count) header fields")
        var headBytes = 0
        for field in headers.fields {
            try InvariantFailure.expect(!field.name.isEmpty && field.name.utf8.allSatisfy(HTTPRequestHarness.isTokenByte),
                                        "header name \(field.name.debugDescription)")
            try InvariantFailure.expect(!field.value.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0 },
                                        "header value \(field.value.debugDescription)")
            headBytes += field.name.unicodeScalars.count + field.value.unicodeScalars.count
        }
        try InvariantFailure.expect(headBytes <= limits.maxHeaderBytes, "a head of at least \(headBytes) bytes")

        let httpStatus = HTTPStatus(code: status, reason: "")
        if case .success = WebSocketHandshake.validateResponse(status: httpStatus, headers: headers, key: key) {
            try InvariantFailure.expect(status == 101, "a \(status) response accepted as a handshake")
            let accepts = headers[all: "Sec-WebSocket-Accept"]
            try InvariantFailure.expect(accepts.count == 1 && accepts[0] == WebSocketHandshake.acceptValue(forKey: key),
                                        "handshake accepted with Sec-WebSocket-Accept \(accepts)")
        }
    }
}
