import ParleyNet

/// What one event loop's clients should open: how many WebSockets, to where, from which
/// source addresses, and how many handshakes may be in flight at once.
struct ConnectPlan: Sendable {
    /// The server.
    var target: SocketAddress
    /// The WebSocket path, e.g. `/ws`.
    var path: String
    /// How many connections to open.
    var count: Int
    /// Source addresses, used round-robin; empty lets the kernel choose. More than one
    /// lifts the ceiling of about 28,000 ephemeral ports per source address.
    var sources: [SocketAddress]
    /// Where in `sources` this loop starts, so loops and workers spread evenly.
    var sourceOffset: Int
    /// Handshakes in flight at once: bounded so a burst of connects does not overflow the
    /// server's accept backlog and turn into SYN retries one second later.
    var window: Int
}
