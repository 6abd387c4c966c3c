import ParleyNet
import ParleyProtocol

/// What a route does: answer at once on the event loop (cheap, non-blocking work only), or
/// run as a task that may wait on the store, the blocking pool or the network.
enum RouteAction: Sendable {
    case immediate(@Sendable (APIRequest) -> HTTPResponse)
    case task(@Sendable (APIRequest) async throws(ProtocolError) -> HTTPResponse)
}
