/// The application behind an `HTTPServer`.
public protocol HTTPResponder: Sendable {
    /// Answers `request` by calling `context.respond` exactly once, now or later, from any
    /// thread. Called on the connection's event loop: do no blocking work here.
    func respond(to request: HTTPRequest, context: HTTPRequestContext)

    /// For a WebSocket upgrade request that passed the handshake checks: the delegate that
    /// will own the WebSocket, or nil to refuse with 404.
    func webSocketDelegate(for head: HTTPRequestHead, context: HTTPRequestContext) -> WebSocketDelegate?

    /// The response for a request the server refused before routing (malformed, over a
    /// limit, a failed WebSocket handshake).
    func errorResponse(status: HTTPStatus, reason: String) -> HTTPResponse
}

extension HTTPResponder {
    public func webSocketDelegate(for head: HTTPRequestHead, context: HTTPRequestContext) -> WebSocketDelegate? { nil }

    public func errorResponse(status: HTTPStatus, reason: String) -> HTTPResponse {
        HTTPResponse(status: status, contentType: "text/plain; charset=utf-8", text: "\(status.code) \(status.reason): \(reason)\n")
    }
}

/// Where a request came from, and the way to answer it.
public final class HTTPRequestContext: @unchecked Sendable {
    // Invariant for `@unchecked Sendable`: `owner` is touched only on `loop`; `respond` hops
    // there from other threads.

    /// The loop of the connection that carried the request.
    public let loop: EventLoop
    /// The peer's address.
    public let remoteAddress: SocketAddress?
    /// The client's address: the peer's, or what a trusted proxy forwarded for
    /// (`ClientAddressResolver`). Per-address limits use this.
    public let clientAddress: String
    private weak var owner: HTTPServerConnection?
    private let sequence: Int

    init(loop: EventLoop, remoteAddress: SocketAddress?, clientAddress: String, owner: HTTPServerConnection, sequence: Int) {
        self.loop = loop
        self.remoteAddress = remoteAddress
        self.clientAddress = clientAddress
        self.owner = owner
        self.sequence = sequence
    }

    /// Hands the answer of `HTTPBodyStreaming.admission` to the connection. Safe from any thread.
    func settleAdmission(_ refusal: HTTPResponse?) {
        if loop.inEventLoop {
            owner?.admissionSettled(refusal)
        } else {
            loop.execute { self.owner?.admissionSettled(refusal) }
        }
    }

    /// Sends the response (once; later calls are ignored). Safe from any thread.
    public func respond(_ response: HTTPResponse) {
        if loop.inEventLoop {
            owner?.complete(sequence: sequence, with: response)
        } else {
            loop.execute { self.owner?.complete(sequence: self.sequence, with: response) }
        }
    }
}
