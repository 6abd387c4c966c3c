#if canImport(Darwin)
public import Foundation

/// The Apple-platform transport: `URLSessionWebSocketTask`. Kept small; it cannot be built
/// on the Linux machines Parley is developed on.
public final class URLSessionTransport: WebSocketTransport {
    private let session: URLSession

    /// Uses an ephemeral session (no cookies or cache shared with the app).
    public init() {
        session = URLSession(configuration: .ephemeral)
    }

    /// Opens the WebSocket and waits for the first successful round trip (a ping), since the
    /// task reports a refused handshake only on first use.
    public func connect(to url: URL) async throws(ParleyError) -> any TransportSocket {
        let task = session.webSocketTask(with: url)
        task.resume()
        let opened: Error? = await withCheckedContinuation { continuation in
            task.sendPing { continuation.resume(returning: $0) }
        }
        if let opened {
            task.cancel(with: .goingAway, reason: nil)
            throw ParleyError.transport(opened.localizedDescription)
        }
        return URLSessionSocket(task: task)
    }
}
#endif
