import ParleyNet

/// Renders counters in the Prometheus text exposition format (version 0.0.4).
enum MetricsRenderer {
    static func render(_ metrics: NetMetricsSnapshot, connectionLimit: Int, uptimeSeconds: Int) -> String {
        var out = ""
        func metric(_ name: String, _ type: String, _ help: String, _ samples: [(labels: String, value: Int)]) {
            out += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
            for sample in samples {
                out += sample.labels.isEmpty ? "\(name) \(sample.value)\n" : "\(name){\(sample.labels)} \(sample.value)\n"
            }
        }
        metric("parley_uptime_seconds", "gauge", "Seconds since the server started.", [("", uptimeSeconds)])
        metric("parley_connections_open", "gauge", "Open TCP connections.", [("", metrics.openConnections)])
        metric("parley_connections_limit", "gauge", "Most connections the server will hold at once.", [("", connectionLimit)])
        metric("parley_connections_accepted_total", "counter", "TCP connections accepted.", [("", metrics.acceptedConnections)])
        metric("parley_connections_refused_total", "counter",
               "Connections refused at accept (connection limit or no file descriptors left).", [("", metrics.refusedConnections)])
        metric("parley_connections_closed_total", "counter", "Connections the server closed for a reason of its own.",
               [("reason=\"idle\"", metrics.idleClosed), ("reason=\"slow_peer\"", metrics.slowPeersClosed)])
        metric("parley_http_responses_total", "counter", "HTTP responses by status class.",
               metrics.httpResponsesByClass.enumerated().map { ("class=\"\($0.offset + 1)xx\"", $0.element) })
        metric("parley_websockets_open", "gauge", "Open WebSocket connections.", [("", metrics.openWebSockets)])
        metric("parley_websocket_messages_total", "counter", "WebSocket data messages.",
               [("direction=\"in\"", metrics.webSocketMessagesIn), ("direction=\"out\"", metrics.webSocketMessagesOut)])
        metric("parley_bytes_total", "counter", "Bytes read from and written to sockets.",
               [("direction=\"in\"", metrics.bytesIn), ("direction=\"out\"", metrics.bytesOut)])
        return out
    }
}
