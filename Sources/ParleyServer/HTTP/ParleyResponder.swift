import ParleyNet
import ParleyProtocol

/// Routes every HTTP request of `parley serve`: the API under `/v1/`, health and metrics,
/// the WebSocket endpoint, and the web client's static files for everything else.
final class ParleyResponder: HTTPResponder {
    private let router: Router<RouteAction>
    private let staticFiles: StaticFiles?
    private let pool: BlockingPool
    private let makeWebSocketDelegate: @Sendable (HTTPRequestHead, HTTPRequestContext) -> WebSocketDelegate?

    /// Headers for the web client's pages: nothing from elsewhere runs, nothing frames us.
    static let pageSecurityHeaders: HTTPHeaders = [
        "Content-Security-Policy": "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob: http: https:; "
            + "connect-src 'self' ws: wss:; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
        "X-Content-Type-Options": "nosniff",
        "X-Frame-Options": "DENY",
        "Referrer-Policy": "no-referrer",
        "Cross-Origin-Opener-Policy": "same-origin",
    ]

    /// Headers for every other response (API JSON, media, errors, refusals before routing):
    /// none of them is a page, so a browser that opens one directly may run and load nothing,
    /// must not guess another content type, and may not frame it. `sandbox` makes an uploaded
    /// file that is HTML or SVG, opened directly, a page of no origin that runs nothing.
    static let otherSecurityHeaders: HTTPHeaders = [
        "Content-Security-Policy": "sandbox; default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
        "X-Content-Type-Options": "nosniff",
        "X-Frame-Options": "DENY",
        "Referrer-Policy": "no-referrer",
    ]

    /// `response` with `headers` set (replacing any of the same name).
    static func secured(_ response: HTTPResponse, with headers: HTTPHeaders = otherSecurityHeaders) -> HTTPResponse {
        var response = response
        for field in headers { response.headers.replaceOrAdd(name: field.name, value: field.value) }
        return response
    }

    init(router: Router<RouteAction>, staticFiles: StaticFiles?, pool: BlockingPool,
         webSocket: @escaping @Sendable (HTTPRequestHead, HTTPRequestContext) -> WebSocketDelegate?) {
        self.router = router
        self.staticFiles = staticFiles
        self.pool = pool
        makeWebSocketDelegate = webSocket
    }

    func respond(to request: HTTPRequest, context: HTTPRequestContext) {
        switch router.match(method: request.head.method, path: request.head.path) {
        case .found(let action, let parameters):
            let apiRequest = APIRequest(http: request, parameters: parameters, context: context)
            switch action {
            case .immediate(let handler):
                context.respond(Self.secured(handler(apiRequest)))
            case .task(let handler):
                Task {
                    let response: HTTPResponse
                    do throws(ProtocolError) {
                        response = try await handler(apiRequest)
                    } catch {
                        response = JSONCoding.errorResponse(error)
                    }
                    context.respond(Self.secured(response))
                }
            }
        case .methodNotAllowed(let allowed):
            var response = JSONCoding.errorResponse(ProtocolError(.methodNotAllowed, "\(request.head.method) is not allowed here"))
            response.headers.replaceOrAdd(name: "Allow", value: allowed.map(\.rawValue).joined(separator: ", "))
            context.respond(Self.secured(response))
        case .notFound:
            serveStatic(request, context: context)
        }
    }

    private func serveStatic(_ request: HTTPRequest, context: HTTPRequestContext) {
        let path = request.head.path
        guard let staticFiles, !path.hasPrefix("/v1/"), path != "/v1" else {
            context.respond(Self.secured(JSONCoding.errorResponse(ProtocolError(.notFound, "no such resource"))))
            return
        }
        // Reading files may block: off the loop.
        pool.submit(on: context.loop, { staticFiles.response(for: request.head) }) { result in
            guard case .success(let response) = result else {
                context.respond(Self.secured(JSONCoding.errorResponse(ProtocolError(.internalError, "the file could not be read"))))
                return
            }
            context.respond(Self.secured(response, with: Self.pageSecurityHeaders))
        }
    }

    func webSocketDelegate(for head: HTTPRequestHead, context: HTTPRequestContext) -> WebSocketDelegate? {
        makeWebSocketDelegate(head, context)
    }

    func errorResponse(status: HTTPStatus, reason: String) -> HTTPResponse {
        Self.secured(JSONCoding.errorResponse(JSONCoding.error(forStatus: status, reason: reason)))
    }
}
