import ParleyNet

/// `http-request`: `HTTPRequestDecoder` on arbitrary bytes.
///
/// Invariants: the bytes fed whole and fed in pieces give the same requests and the same
/// end (a server must not behave differently because TCP cut a segment elsewhere); every
/// request respects the limits; header names are tokens and values hold no CR, LF or NUL;
/// the decoder's keep-alive decision (it stops parsing after a request that closes the
/// connection) agrees with `HTTPRequestHead.keepAlive`, which the server answers with;
/// after the end, feeds produce nothing.
///
/// One difference is allowed: when a head breaks several rules, which refusal comes out
/// (400, 414 or 431) may depend on where reads end. http_parser refuses a bad byte as it
/// reaches it, but hands a URI, name or value to Parley's checks only when the piece ends
/// or the read does, so the two kinds of check can meet the same input in either order.
/// The request is refused either way, and everything before it must still be identical.
enum HTTPRequestHarness {
    /// Small limits so that short inputs reach every one of them.
    static let limits = HTTPLimits(maxHeaderBytes: 512, maxHeaderCount: 8, maxURILength: 128, maxBodyBytes: 256)

    /// Everything one decoder produced over a whole stream.
    struct Outcome: Equatable {
        var requests: [HTTPRequest] = []
        var terminal: HTTPDecoderOutput.Terminal?
        /// Whether the decoder refuses further input at the end.
        var finished = false
    }

    static func run(_ bytes: [UInt8]) throws(InvariantFailure) {
        // The server's own limits: only "does not crash" here, the small limits below are
        // where the fuzzer can reach every refusal.
        _ = HTTPRequestDecoder().feed(bytes)

        let whole = try decode([bytes[...]])
        try check(whole)
        for pieces in InputSplitter.splits(bytes) {
            let split = try decode(pieces)
            try InvariantFailure.expect(agree(split, whole), """
                fed in \(pieces.count) pieces the decoder gave
                  \(describe(split))
                but fed whole
                  \(describe(whole))
                """)
        }
    }

    /// The statuses of refusals that come from the head, where the order of checks
    /// depends on read boundaries (see above).
    static let headRefusals: Set<Int> = [400, 414, 431]

    /// Whether two ways of feeding the same bytes gave the same outcome, up to the choice
    /// between head refusals.
    static func agree(_ a: Outcome, _ b: Outcome) -> Bool {
        if a == b { return true }
        guard a.requests == b.requests, a.finished == b.finished,
              case .failure(let first)? = a.terminal, case .failure(let second)? = b.terminal else { return false }
        return headRefusals.contains(first.status.code) && headRefusals.contains(second.status.code)
    }

    /// Feeds `pieces` in order to one decoder. An upgrade's leftover is completed with the
    /// pieces after it, which the caller would have handed to the new protocol.
    static func decode(_ pieces: [ArraySlice<UInt8>]) throws(InvariantFailure) -> Outcome {
        let decoder = HTTPRequestDecoder(limits: limits)
        var outcome = Outcome()
        for piece in pieces {
            let output = decoder.feed(Array(piece))
            if outcome.terminal != nil {
                try InvariantFailure.expect(output == HTTPDecoderOutput(), "a feed after the end produced \(output)")
                if case .upgrade(let request, let leftover) = outcome.terminal {
                    outcome.terminal = .upgrade(request, leftover: leftover + piece)
                }
                continue
            }
            outcome.requests += output.requests
            outcome.terminal = output.terminal
        }
        outcome.finished = decoder.isFinished
        if outcome.terminal != nil {
            try InvariantFailure.expect(outcome.finished, "the decoder ended the stream but is not finished")
        }
        return outcome
    }

    static func check(_ outcome: Outcome) throws(InvariantFailure) {
        var upgradeRequest: HTTPRequest?
        if case .upgrade(let request, _) = outcome.terminal { upgradeRequest = request }
        for request in outcome.requests + (upgradeRequest.map { [$0] } ?? []) {
            try checkLimits(request)
        }
        // The decoder went on after every request but the last, so each of them must
        // keep the connection alive in the server's eyes too.
        for request in outcome.requests.dropLast() {
            try InvariantFailure.expect(request.head.keepAlive,
                                        "the decoder read past a request the server would close after: \(request.head)")
        }
        // http_parser refuses bytes after a message it considers the last; the decoder
        // must have stopped or restarted it before that.
        if case .failure(let error)? = outcome.terminal {
            try InvariantFailure.expect(error.reason != "closed_connection", "refused a request after a kept-alive one: \(error)")
        }
        if let last = outcome.requests.last {
            if outcome.terminal != nil {
                try InvariantFailure.expect(last.head.keepAlive,
                                            "the decoder read past a request the server would close after: \(last.head)")
            } else {
                // A decoder that stopped reading while the server keeps the connection
                // open leaves the client waiting forever, and the reverse drops requests.
                try InvariantFailure.expect(last.head.keepAlive == !outcome.finished, """
                    keep-alive disagrees: the server's keepAlive is \(last.head.keepAlive) but the decoder \
                    \(outcome.finished ? "stopped" : "went on") after \(last.head)
                    """)
            }
        }
    }

    static func checkLimits(_ request: HTTPRequest) throws(InvariantFailure) {
        let head = request.head
        try InvariantFailure.expect(head.version == .http1_0 || head.version == .http1_1, "version \(head.version)")
        try InvariantFailure.expect(head.headers.count <= limits.maxHeaderCount, "\(head.headers.count) header fields")
        try InvariantFailure.expect(request.body.count <= limits.maxBodyBytes, "a body of \(request.body.count) bytes")
        // The URI is decoded leniently (an invalid byte becomes U+FFFD), so count scalars:
        // one byte on the wire gives at most one.
        let uriScalars = head.uri.unicodeScalars.count
        try InvariantFailure.expect(uriScalars <= limits.maxURILength, "a URI of \(uriScalars) scalars")
        var headScalars = head.method.rawValue.unicodeScalars.count + uriScalars
        for field in head.headers.fields {
            try InvariantFailure.expect(!field.name.isEmpty && field.name.utf8.allSatisfy(isTokenByte),
                                        "header name \(field.name.debugDescription)")
            try InvariantFailure.expect(!field.value.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0 },
                                        "header value \(field.value.debugDescription)")
            headScalars += field.name.unicodeScalars.count + field.value.unicodeScalars.count
        }
        try InvariantFailure.expect(headScalars <= limits.maxHeaderBytes, "a head of at least \(headScalars) bytes")
    }

    /// RFC 9110 `tchar`, written out again here rather than borrowed from the decoder.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
            true
        default:
            "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }

    static func describe(_ outcome: Outcome) -> String {
        let requests = outcome.requests.map { "\($0.head.method) \($0.head.uri.debugDescription) body \($0.body.count)" }
        return "requests \(requests), terminal \(outcome.terminal.map { "\($0)" } ?? "none"), finished \(outcome.finished)"
    }
}
