import ParleyNet

/// The relay server's application: the relay at `/relay`, `ok` at `/healthz`.
struct RelayResponder: HTTPResponder {
    let hub: RelayHub

    func respond(to request: HTTPRequest, context: HTTPRequestContext) {
        if request.head.path == "/healthz" {
            context.respond(HTTPResponse(status: .ok, contentType: "text/plain", text: "ok\n"))
        } else {
            context.respond(HTTPResponse(status: .notFound))
        }
    }

    func webSocketDelegate(for head: HTTPRequestHead, context: HTTPRequestContext) -> WebSocketDelegate? {
        head.path == "/relay" ? hub : nil
    }
}
