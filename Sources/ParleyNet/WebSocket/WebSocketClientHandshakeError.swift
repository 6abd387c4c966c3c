/// Why a client rejected a server's answer to its WebSocket upgrade request
/// (RFC 6455 §4.1); the client must then close the connection.
public enum WebSocketClientHandshakeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The status was not 101 Switching Protocols.
    case unexpectedStatus(HTTPStatus)
    /// `Upgrade` did not name `websocket`.
    case missingUpgradeToken
    /// `Connection` did not name `upgrade`.
    case missingConnectionToken
    /// `Sec-WebSocket-Accept` was absent or did not match the key sent.
    case invalidAccept
    /// The server selected an extension, but none was offered.
    case unexpectedExtension(String)
    /// The server selected a subprotocol that was not offered.
    case unexpectedProtocol(String)

    /// A one-line explanation for logs.
    public var description: String {
        switch self {
        case .unexpectedStatus(let status): "expected 101 Switching Protocols, got \(status)"
        case .missingUpgradeToken: "Upgrade header does not name websocket"
        case .missingConnectionToken: "Connection header does not name upgrade"
        case .invalidAccept: "Sec-WebSocket-Accept is missing or wrong"
        case .unexpectedExtension(let value): "server selected an extension that was not offered: \(value)"
        case .unexpectedProtocol(let value): "server selected a subprotocol that was not offered: \(value)"
        }
    }
}
