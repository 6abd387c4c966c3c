/// The opening handshake of RFC 6455 §4: an HTTP/1.1 upgrade request answered by
/// `101 Switching Protocols`. The server side is here; the client side is in
/// `WebSocketHandshake+Client.swift`.
///
/// No extensions (such as permessage-deflate) are ever negotiated, so the frame codecs can
/// treat every reserved bit as an error. Subprotocols are left to the caller: it may add
/// `Sec-WebSocket-Protocol` to the 101 response.
public enum WebSocketHandshake {
    /// The only protocol version there is (RFC 6455 §4.1).
    public static let version = "13"

    /// The GUID RFC 6455 §1.3 appends to the key before hashing.
    public static let acceptGUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    /// The `Sec-WebSocket-Accept` value for a `Sec-WebSocket-Key`: Base64 of the SHA-1 of
    /// the key followed by the GUID. It proves the server read this very request.
    public static func acceptValue(forKey key: String) -> String {
        Base64.encode(SHA1.hash((key + acceptGUID).utf8))
    }

    /// Checks an upgrade request and returns the `101 Switching Protocols` response to
    /// send, or the refusal: 405 for a method other than GET, 400 for a malformed request,
    /// 426 (with `Sec-WebSocket-Version: 13`) for another protocol version, 403 for an
    /// origin `originPolicy` does not allow.
    public static func validate(request head: HTTPRequestHead,
                                originPolicy: WebSocketOriginPolicy,
                                scheme: String? = nil) -> Result<HTTPResponse, WebSocketHandshakeError> {
        let headers = head.headers
        guard head.method == .get else {
            return .failure(WebSocketHandshakeError(status: .methodNotAllowed, reason: "a WebSocket upgrade must use GET",
                                                    headers: ["Allow": "GET"]))
        }
        guard head.version.major > 1 || (head.version.major == 1 && head.version.minor >= 1) else {
            return .failure(WebSocketHandshakeError(status: .badRequest, reason: "a WebSocket upgrade needs HTTP/1.1"))
        }
        let hosts = headers[all: "Host"]
        guard hosts.count == 1, let host = hosts.first, !host.trimmingSpaces().isEmpty else {
            return .failure(WebSocketHandshakeError(status: .badRequest, reason: "exactly one Host header is required"))
        }
        guard headers.containsToken("websocket", in: "Upgrade") else {
            return .failure(WebSocketHandshakeError(status: .badRequest, reason: "Upgrade header must name websocket"))
        }
        guard headers.containsToken("upgrade", in: "Connection") else {
            return .failure(WebSocketHandshakeError(status: .badRequest, reason: "Connection header must name upgrade"))
        }
        let versions = headers[all: "Sec-WebSocket-Version"]
        guard versions.count == 1, versions.first?.trimmingSpaces() == Substring(version) else {
            // RFC 6455 §4.4: name the version we speak so the client can retry with it.
            return .failure(WebSocketHandshakeError(status: .upgradeRequired, reason: "only WebSocket version 13 is supported",
                                                    headers: ["Upgrade": "websocket", "Sec-WebSocket-Version": version]))
        }
        let keys = headers[all: "Sec-WebSocket-Key"]
        guard keys.count == 1, let rawKey = keys.first else {
            return .failure(WebSocketHandshakeError(status: .badRequest, reason: "exactly one Sec-WebSocket-Key header is required"))
        }
        let key = String(rawKey.trimmingSpaces())
        guard Base64.decode(key)?.count == 16 else {
            return .failure(WebSocketHandshakeError(status: .badRequest, reason: "Sec-WebSocket-Key must be Base64 of 16 bytes"))
        }
        let origins = headers[all: "Origin"]
        guard origins.count <= 1 else {
            return .failure(WebSocketHandshakeError(status: .badRequest, reason: "more than one Origin header"))
        }
        guard originPolicy.allows(origin: origins.first.map { String($0.trimmingSpaces()) }, host: String(host.trimmingSpaces()), scheme: scheme) else {
            return .failure(WebSocketHandshakeError(status: .forbidden, reason: "origin not allowed"))
        }
        let response = HTTPResponse(status: .switchingProtocols, headers: [
            "Upgrade": "websocket",
            "Connection": "Upgrade",
            "Sec-WebSocket-Accept": acceptValue(forKey: key),
        ])
        return .success(response)
    }
}
