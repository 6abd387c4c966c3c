import Synchronization

/// Counters kept by one event loop. Each loop writes only its own instance (relaxed atomics,
/// no sharing between cores on the hot path); readers sum all loops' instances.
public final class NetMetrics: Sendable {
    /// Connections accepted since start.
    let acceptedConnections = Atomic<Int>(0)
    /// Connections open now.
    let openConnections = Atomic<Int>(0)
    /// Connections refused at accept time (descriptor or connection limit reached).
    let refusedConnections = Atomic<Int>(0)
    /// Bytes read from and written to sockets.
    let bytesIn = Atomic<Int>(0), bytesOut = Atomic<Int>(0)
    /// HTTP responses by status class.
    let http1xx = Atomic<Int>(0), http2xx = Atomic<Int>(0), http3xx = Atomic<Int>(0),
               http4xx = Atomic<Int>(0), http5xx = Atomic<Int>(0)
    /// WebSocket messages received and sent (data messages, not control frames).
    let webSocketMessagesIn = Atomic<Int>(0), webSocketMessagesOut = Atomic<Int>(0)
    /// Open WebSocket connections.
    let openWebSockets = Atomic<Int>(0)
    /// Connections closed because the peer did not read (write queue stalled or over its bound).
    let slowPeersClosed = Atomic<Int>(0)
    /// Connections closed for being idle.
    let idleClosed = Atomic<Int>(0)

    public init() {}

    /// Counts one HTTP response with `status` in its class.
    func countResponse(status: Int) {
        switch status / 100 {
        case 1: http1xx.add(1, ordering: .relaxed)
        case 2: http2xx.add(1, ordering: .relaxed)
        case 3: http3xx.add(1, ordering: .relaxed)
        case 4: http4xx.add(1, ordering: .relaxed)
        default: http5xx.add(1, ordering: .relaxed)
        }
    }

    /// A plain snapshot of every counter.
    public var snapshot: NetMetricsSnapshot {
        NetMetricsSnapshot(
            acceptedConnections: acceptedConnections.load(ordering: .relaxed),
            openConnections: openConnections.load(ordering: .relaxed),
            refusedConnections: refusedConnections.load(ordering: .relaxed),
            bytesIn: bytesIn.load(ordering: .relaxed),
            bytesOut: bytesOut.load(ordering: .relaxed),
            httpResponsesByClass: [http1xx.load(ordering: .relaxed), http2xx.load(ordering: .relaxed),
                                   http3xx.load(ordering: .relaxed), http4xx.load(ordering: .relaxed),
                                   http5xx.load(ordering: .relaxed)],
            webSocketMessagesIn: webSocketMessagesIn.load(ordering: .relaxed),
            webSocketMessagesOut: webSocketMessagesOut.load(ordering: .relaxed),
            openWebSockets: openWebSockets.load(ordering: .relaxed),
            slowPeersClosed: slowPeersClosed.load(ordering: .relaxed),
            idleClosed: idleClosed.load(ordering: .relaxed))
    }
}

/// Counter values at one moment, summable across loops.
public struct NetMetricsSnapshot: Sendable, Equatable {
    public var acceptedConnections = 0, openConnections = 0, refusedConnections = 0
    public var bytesIn = 0, bytesOut = 0
    /// Responses for status classes 1xx…5xx, at indices 0…4.
    public var httpResponsesByClass = [0, 0, 0, 0, 0]
    public var webSocketMessagesIn = 0, webSocketMessagesOut = 0, openWebSockets = 0
    public var slowPeersClosed = 0, idleClosed = 0

    /// Adds another snapshot's counters to this one.
    public static func + (a: Self, b: Self) -> Self {
        var sum = a
        sum.acceptedConnections += b.acceptedConnections
        sum.openConnections += b.openConnections
        sum.refusedConnections += b.refusedConnections
        sum.bytesIn += b.bytesIn
        sum.bytesOut += b.bytesOut
        for i in 0..<5 { sum.httpResponsesByClass[i] += b.httpResponsesByClass[i] }
        sum.webSocketMessagesIn += b.webSocketMessagesIn
        sum.webSocketMessagesOut += b.webSocketMessagesOut
        sum.openWebSockets += b.openWebSockets
        sum.slowPeersClosed += b.slowPeersClosed
        sum.idleClosed += b.idleClosed
        return sum
    }
}
