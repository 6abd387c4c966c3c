/// Which end of a WebSocket connection this is. The masking rules depend on it: a client
/// masks every frame it sends and a server masks none (RFC 6455 §5.1).
public enum WebSocketRole: Sendable, Hashable {
    /// The end that accepted the HTTP upgrade.
    case server
    /// The end that asked for the HTTP upgrade.
    case client
}
