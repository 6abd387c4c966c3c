import ParleyNet

/// The echo server's application: a WebSocket echo at `/ws`, `ok` at `/healthz`, 404 for
/// everything else.
struct EchoResponder: HTTPResponder {
    /// The one delegate of every WebSocket: echoing keeps no state, and sharing it means the
    /// server's memory per connection is ParleyNet's own, with nothing of the bench's added.
    private let echo = EchoSocket()

    func respond(to request: HTTPRequest, context: HTTPRequestContext) {
        if request.head.path == "/healthz" {
            context.respond(HTTPResponse(status: .ok, contentType: "text/plain", text: "ok\n"))
        } else {
            context.respond(HTTPResponse(status: .notFound))
        }
    }

    func webSocketDelegate(for head: HTTPRequestHead, context: HTTPRequestContext) -> WebSocketDelegate? {
        head.path == "/ws" ? echo : nil
    }
}
