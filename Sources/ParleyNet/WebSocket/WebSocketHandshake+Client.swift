/// The client side of the opening handshake (RFC 6455 §4.1).
extension WebSocketHandshake {
    /// The upgrade request for `path` (with any query) on `host` (the `Host` value,
    /// `name[:port]`), with a fresh random key from the system's secure generator. Send
    /// `origin` when acting for a web page; `headers` are added last (cookies, tokens,
    /// `Sec-WebSocket-Protocol`). Keep the returned key to check the response.
    public static func clientRequest(path: String, host: String, origin: String? = nil,
                                     headers: HTTPHeaders = [:]) -> (head: HTTPRequestHead, key: String) {
        // `UInt8.random(in:)` rather than an `inout SystemRandomNumberGenerator`: that
        // generator is an empty struct, and every thread's copy of it has one shared address,
        // which ThreadSanitizer's exclusivity checks report as a race between event loops.
        let nonce = (0..<16).map { _ in UInt8.random(in: .min ... .max) }
        return clientRequest(path: path, host: host, origin: origin, headers: headers, nonce: nonce)
    }

    /// The upgrade request, with the key drawn from `generator`.
    public static func clientRequest(path: String, host: String, origin: String? = nil, headers: HTTPHeaders = [:],
                                     using generator: inout some RandomNumberGenerator) -> (head: HTTPRequestHead, key: String) {
        let nonce = (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return clientRequest(path: path, host: host, origin: origin, headers: headers, nonce: nonce)
    }

    private static func clientRequest(path: String, host: String, origin: String?, headers: HTTPHeaders,
                                      nonce: [UInt8]) -> (head: HTTPRequestHead, key: String) {
        let key = Base64.encode(nonce)
        var fields: HTTPHeaders = [
            "Host": host,
            "Upgrade": "websocket",
            "Connection": "Upgrade",
            "Sec-WebSocket-Key": key,
            "Sec-WebSocket-Version": version,
        ]
        if let origin { fields.add(name: "Origin", value: origin) }
        for field in headers.fields { fields.add(name: field.name, value: field.value) }
        let head = HTTPRequestHead(method: .get, uri: path.isEmpty ? "/" : path, version: .http1_1, headers: fields)
        return (head, key)
    }

    /// Checks the server's answer to a request sent with `key`: 101, `Upgrade: websocket`,
    /// `Connection: upgrade`, the matching `Sec-WebSocket-Accept`, no extension, and no
    /// subprotocol other than one of `requestedProtocols`.
    public static func validateResponse(status: HTTPStatus, headers: HTTPHeaders, key: String,
                                        requestedProtocols: [String] = []) -> Result<Void, WebSocketClientHandshakeError> {
        guard status.code == 101 else { return .failure(.unexpectedStatus(status)) }
        guard headers.containsToken("websocket", in: "Upgrade") else { return .failure(.missingUpgradeToken) }
        guard headers.containsToken("upgrade", in: "Connection") else { return .failure(.missingConnectionToken) }
        let accepts = headers[all: "Sec-WebSocket-Accept"]
        guard accepts.count == 1, accepts.first?.trimmingSpaces() == Substring(acceptValue(forKey: key)) else {
            return .failure(.invalidAccept)
        }
        if let extensions = headers[first: "Sec-WebSocket-Extensions"] {
            return .failure(.unexpectedExtension(extensions))
        }
        let protocols = headers[all: "Sec-WebSocket-Protocol"]
        if let selected = protocols.first {
            let name = String(selected.trimmingSpaces())
            guard protocols.count == 1, requestedProtocols.contains(name) else {
                return .failure(.unexpectedProtocol(selected))
            }
        }
        return .success(())
    }
}
