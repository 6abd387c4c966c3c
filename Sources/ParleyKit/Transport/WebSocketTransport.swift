public import Foundation

/// Opens WebSockets for a `ParleyClient`. On Linux the default is `ParleyNetTransport`
/// (Parley's own epoll-based client); on Apple platforms `URLSessionTransport`. Tests and
/// apps may bring their own.
public protocol WebSocketTransport: Sendable {
    /// Opens a WebSocket to `url` (`ws://` or `wss://`) and returns it once the handshake is
    /// done, or fails with `ParleyError.transport`.
    func connect(to url: URL) async throws(ParleyError) -> any TransportSocket
}

/// One open WebSocket, as a `ParleyClient` uses it: text frames out, text frames and one
/// final close in.
public protocol TransportSocket: AnyObject, Sendable {
    /// Every text frame received, in order, then `.closed` once, then the end of the stream.
    /// There is exactly one consumer (the client's reader).
    var inputs: AsyncStream<TransportInput> { get }
    /// Queues a text frame; frames go out in the order of the calls. Ignored after close.
    func send(text: String)
    /// Starts the closing handshake with `code` (1000 unless told otherwise).
    func close(code: Int)
}

/// What a `TransportSocket` receives.
public enum TransportInput: Sendable, Equatable {
    /// A whole text message.
    case text(String)
    /// The socket closed: the peer's close code, ours, or 1006 when the connection dropped.
    case closed(code: Int, reason: String)
}

/// The platform's default transport.
public enum DefaultTransport {
    /// `ParleyNetTransport` on Linux, `URLSessionTransport` on Apple platforms.
    /// `caFile`: the CAs (PEM) a server's certificate must chain to instead of the system's;
    /// Linux only (Apple platforms trust what the system trusts).
    public static func make(caFile: String? = nil) -> any WebSocketTransport {
        #if canImport(ParleyNet)
        return caFile.map { ParleyNetTransport(caFile: $0) } ?? ParleyNetTransport.shared
        #elseif canImport(Darwin)
        return URLSessionTransport()
        #else
        #error("ParleyKit needs ParleyNet (Linux) or URLSession's WebSocket (Apple platforms)")
        #endif
    }
}
