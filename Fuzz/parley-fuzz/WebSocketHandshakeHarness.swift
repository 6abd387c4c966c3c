import ParleyNet

/// `websocket-handshake`: `WebSocketHandshake.validate` on request heads decoded from
/// arbitrary bytes, under each origin policy, and `Base64.decode` on the key.
///
/// Invariants: an accepted upgrade is a GET over HTTP/1.1 with one Host, one version 13
/// and one key that is canonical Base64 of 16 bytes, answered by a 101 whose
/// `Sec-WebSocket-Accept` is the key's accept value; a refusal carries one of the documented
/// statuses; the policies nest (`allowAny` accepts all that `sameOrigin` or an allow list
/// accepts, and all three agree when there is no `Origin`); Base64 that decodes re-encodes
/// to the same text.
enum WebSocketHandshakeHarness {
    static let policies: [WebSocketOriginPolicy] = [
        .allowAny, .sameOrigin, .allowList(["https://chat.example", "http://localhost:8080", "null"]),
    ]

    static func run(_ bytes: [UInt8]) throws(InvariantFailure) {
        let text = String(decoding: bytes, as: UTF8.self)
        try checkBase64(text)

        let output = HTTPRequestDecoder().feed(bytes)
        var heads = output.requests.map(\.head)
        if case .upgrade(let request, _) = output.terminal { heads.append(request.head) }
        for head in heads {
            try check(head)
        }
    }

    static func check(_ head: HTTPRequestHead) throws(InvariantFailure) {
        let results = policies.map { WebSocketHandshake.validate(request: head, originPolicy: $0) }
        for result in results {
            switch result {
            case .success(let response):
                try checkAccepted(head, response)
            case .failure(let error):
                try InvariantFailure.expect([400, 403, 405, 426].contains(error.status.code), "refused with \(error.status)")
                try InvariantFailure.expect((error.status.code == 403) == (error.reason == "origin not allowed"),
                                            "status \(error.status) for \(error.reason)")
            }
        }
        let accepted = results.map { if case .success = $0 { true } else { false } }
        // The only difference between policies is the origin check, which comes last.
        try InvariantFailure.expect(accepted[0] || !accepted.contains(true), "a stricter policy accepted what allowAny refused")
        if head.headers[all: "Origin"].isEmpty {
            try InvariantFailure.expect(Set(accepted).count == 1, "policies disagree on a request without Origin: \(accepted)")
        }
    }

    static func checkAccepted(_ head: HTTPRequestHead, _ response: HTTPResponse) throws(InvariantFailure) {
        try InvariantFailure.expect(head.method == .get && head.version == .http1_1, "accepted \(head.method) \(head.version)")
        try InvariantFailure.expect(head.headers[all: "Host"].count == 1, "accepted with Host \(head.headers[all: "Host"])")
        try InvariantFailure.expect(head.headers[all: "Sec-WebSocket-Version"].map { $0.trimmed } == ["13"],
                                    "accepted with version \(head.headers[all: "Sec-WebSocket-Version"])")
        let keys = head.headers[all: "Sec-WebSocket-Key"]
        try InvariantFailure.expect(keys.count == 1, "accepted with keys \(keys)")
        let key = keys[0].trimmed
        try InvariantFailure.expect(Base64.decode(key)?.count == 16, "accepted key \(key.debugDescription)")
        try InvariantFailure.expect(response.status.code == 101, "accepted with status \(response.status)")
        try InvariantFailure.expect(response.headers[all: "Sec-WebSocket-Accept"] == [WebSocketHandshake.acceptValue(forKey: key)],
                                    "Sec-WebSocket-Accept \(response.headers[all: "Sec-WebSocket-Accept"]) for key \(key)")
    }

    static func checkBase64(_ text: String) throws(InvariantFailure) {
        for candidate in [text, text.trimmed] {
            guard let decoded = Base64.decode(candidate) else { continue }
            try InvariantFailure.expect(Base64.encode(decoded) == candidate, "\(candidate.debugDescription) decoded but re-encodes differently")
        }
        // And the other way round, on the input's bytes.
        let bytes = Array(text.utf8)
        try InvariantFailure.expect(Base64.decode(Base64.encode(bytes)) == bytes, "Base64 does not round-trip \(bytes.count) bytes")
    }
}

extension String {
    /// Without leading and trailing spaces and tabs, as header values are compared.
    fileprivate var trimmed: String {
        var scalars = Substring(self)
        while let first = scalars.first, first == " " || first == "\t" { scalars.removeFirst() }
        while let last = scalars.last, last == " " || last == "\t" { scalars.removeLast() }
        return String(scalars)
    }
}
