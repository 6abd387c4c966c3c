/// Why a server refused a WebSocket upgrade request, and the response that says so.
public struct WebSocketHandshakeError: Error, Sendable, CustomStringConvertible {
    /// The HTTP status of the refusal.
    public let status: HTTPStatus
    /// What was wrong, for logs and the response body.
    public let reason: String
    /// The response to send before closing the connection.
    public let response: HTTPResponse

    /// A refusal with `status`, whose response carries `reason` as a text body and `headers`.
    public init(status: HTTPStatus, reason: String, headers: HTTPHeaders = [:]) {
        self.status = status
        self.reason = reason
        response = HTTPResponse(status: status, contentType: "text/plain; charset=utf-8", text: reason + "\n", headers: headers)
    }

    /// A one-line explanation for logs.
    public var description: String { "WebSocket handshake refused: \(status): \(reason)" }
}
