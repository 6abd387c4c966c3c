@testable import ParleyNet

/// A small application for live tests: `/echo` echoes the body, `/hello` says hello,
/// `/ws` is a WebSocket echo.
struct EchoResponder: HTTPResponder {
    let router: Router<@Sendable (HTTPRequest, [String: String]) -> HTTPResponse>

    init() {
        var builder = RouterBuilder<@Sendable (HTTPRequest, [String: String]) -> HTTPResponse>()
        builder.add(.post, "/echo") { request, _ in
            HTTPResponse(status: .ok, headers: ["Content-Type": "application/octet-stream"], body: ByteChunk.of(request.body))
        }
        builder.add(.get, "/hello/:name") { _, parameters in
            HTTPResponse(status: .ok, contentType: "text/plain", text: "hello \(parameters["name"] ?? "")")
        }
        router = builder.build()
    }

    func respond(to request: HTTPRequest, context: HTTPRequestContext) {
        switch router.match(method: request.head.method, path: request.head.path) {
        case .found(let handler, let parameters):
            context.respond(handler(request, parameters))
        case .methodNotAllowed(let allowed):
            context.respond(HTTPResponse(status: .methodNotAllowed, headers: ["Allow": allowed.map(\.rawValue).joined(separator: ", ")]))
        case .notFound:
            context.respond(HTTPResponse(status: .notFound))
        }
    }

    func webSocketDelegate(for head: HTTPRequestHead, context: HTTPRequestContext) -> WebSocketDelegate? {
        head.path == "/ws" ? EchoSocket() : nil
    }
}

/// Echoes every text and binary message.
final class EchoSocket: WebSocketDelegate {
    func webSocket(_ socket: WebSocketConnection, didReceiveText text: String) { socket.send(text: text) }
    func webSocket(_ socket: WebSocketConnection, didReceiveBinary bytes: [UInt8]) { socket.send(binary: bytes) }
    func webSocketDidClose(_ socket: WebSocketConnection, code: WebSocketCloseCode, reason: String) {}
}

/// Starts an `HTTPServer` with `EchoResponder` on a free port.
final class TestHTTPServer {
    let group: EventLoopGroup
    let server: HTTPServer
    var port: Int { server.localAddress.port }

    init(loops: Int = 2, configuration: HTTPServer.Configuration = HTTPServer.Configuration(originPolicy: .allowAny)) throws {
        group = try EventLoopGroup(loopCount: loops)
        server = try HTTPServer(group: group, address: SocketAddress(host: "127.0.0.1", port: 0),
                                configuration: configuration, responder: EchoResponder())
    }

    func stop() {
        server.shutdown(timeout: .seconds(2))
        group.shutdown()
    }
}
