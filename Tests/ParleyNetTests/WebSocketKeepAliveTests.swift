import Glibc
import Testing
@testable import ParleyNet

/// A WebSocket's deadlines on a real server (port 0): its pings and its idle end, kept by the
/// loop's `DeadlineWheel` rather than timers of its own.
@Suite struct WebSocketKeepAliveTests {
    /// Serves `/ws` with pings every `pingInterval`; each socket's idle timeout is shortened
    /// to `idle` as it opens (the WebSocket's own is two intervals and 15 s).
    struct QuietResponder: HTTPResponder {
        let idle: Duration
        func respond(to request: HTTPRequest, context: HTTPRequestContext) {
            context.respond(HTTPResponse(status: .notFound))
        }
        func webSocketDelegate(for head: HTTPRequestHead, context: HTTPRequestContext) -> WebSocketDelegate? {
            ShortIdleSocket(idle: idle)
        }
    }

    final class ShortIdleSocket: WebSocketDelegate {
        let idle: Duration
        init(idle: Duration) { self.idle = idle }
        func webSocketDidOpen(_ socket: WebSocketConnection) { socket.connection.setIdleTimeout(idle) }
        func webSocket(_ socket: WebSocketConnection, didReceiveText text: String) {}
        func webSocket(_ socket: WebSocketConnection, didReceiveBinary bytes: [UInt8]) {}
        func webSocketDidClose(_ socket: WebSocketConnection, code: WebSocketCloseCode, reason: String) {}
    }

    /// A delegate that asks for a deadline `after` its socket opens (and clears it at once if
    /// `cleared`), and sends the text "due" when it passes.
    final class DeadlineSocket: WebSocketDelegate {
        let after: Duration
        let cleared: Bool
        init(after: Duration, cleared: Bool) {
            self.after = after
            self.cleared = cleared
        }
        func webSocketDidOpen(_ socket: WebSocketConnection) {
            socket.setDelegateDeadline(after: after)
            if cleared { socket.setDelegateDeadline(after: nil) }
        }
        func webSocketDeadlinePassed(_ socket: WebSocketConnection) { socket.send(text: "due") }
        func webSocket(_ socket: WebSocketConnection, didReceiveText text: String) {}
        func webSocketDidClose(_ socket: WebSocketConnection, code: WebSocketCloseCode, reason: String) {}
    }

    struct DeadlineResponder: HTTPResponder {
        let after: Duration
        let cleared: Bool
        func respond(to request: HTTPRequest, context: HTTPRequestContext) {
            context.respond(HTTPResponse(status: .notFound))
        }
        func webSocketDelegate(for head: HTTPRequestHead, context: HTTPRequestContext) -> WebSocketDelegate? {
            DeadlineSocket(after: after, cleared: cleared)
        }
    }

    /// A one-loop server pinging every `ping`, answered by `responder`.
    static func serve(ping: Duration, responder: HTTPResponder) throws -> (EventLoopGroup, HTTPServer) {
        let group = try EventLoopGroup(loopCount: 1)
        let configuration = HTTPServer.Configuration(webSocket: WebSocketOptions(pingInterval: ping), originPolicy: .allowAny)
        do {
            let server = try HTTPServer(group: group, address: SocketAddress(host: "127.0.0.1", port: 0),
                                        configuration: configuration, responder: responder)
            return (group, server)
        } catch {
            group.shutdown()
            throw error
        }
    }

    /// Opens a WebSocket on a raw socket: true if the server switched protocols.
    static func upgrade(_ client: BlockingSocket) throws -> Bool {
        try client.send("GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                        + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
        return try client.receive(until: "\r\n\r\n").hasPrefix("HTTP/1.1 101")
    }

    /// The wheel's tick: a deadline is kept to it, never early.
    static let tick = Duration.milliseconds(DeadlineWheel.tickNanoseconds / 1_000_000)

    /// Serves with `responder`, pinging every `ping`; opens a WebSocket on a raw client and runs
    /// `body` with the client, when the socket opened, and the server's loops.
    static func withOpenSocket(ping: Duration, responder: HTTPResponder, timeoutSeconds: Int = 10,
                               _ body: (BlockingSocket, ContinuousClock.Instant, EventLoopGroup) throws -> Void) throws {
        let (group, server) = try serve(ping: ping, responder: responder)
        defer { group.shutdown() }
        defer { server.shutdown(timeout: .seconds(1)) }
        let client = try BlockingSocket(port: server.localAddress.port, timeoutSeconds: timeoutSeconds)
        #expect(try upgrade(client))
        try body(client, ContinuousClock.now, group)
    }

    @Test func aSilentPeerIsPingedThenClosed() throws {
        try Self.withOpenSocket(ping: .milliseconds(300), responder: QuietResponder(idle: .milliseconds(1000))) { client, opened, group throws in
            // Silent for the interval: a ping (FIN + opcode 9, no payload), never before it.
            #expect(try client.receive(exactly: 2) == [0x89, 0x00])
            #expect(ContinuousClock.now - opened >= .milliseconds(300) - Self.tick)
            // Never answered: more pings, then the close at the idle timeout, counted as idle.
            let rest = try client.receiveUntilClose()
            #expect(rest.count % 2 == 0 && rest.allSatisfy { $0 == 0x89 || $0 == 0x00 })
            #expect(ContinuousClock.now - opened >= .milliseconds(1000))
            #expect(group.metrics.idleClosed == 1)
        }
    }

    @Test func aPeerThatTalksIsNotPinged() throws {
        try Self.withOpenSocket(ping: .milliseconds(400), responder: QuietResponder(idle: .seconds(30)), timeoutSeconds: 1) { client, _, _ throws in
            // A pong every 100 ms (input, as a client's answer to a ping would be) for 1 s:
            // the connection is never quiet for the interval, so nothing comes back.
            for _ in 0..<10 {
                try client.send(RawFrame.client(opcode: 0xA, []))
                usleep(100_000)
            }
            var pollTimeout = timeval(tv_sec: 0, tv_usec: 100_000)
            setsockopt(client.fd, SOL_SOCKET, SO_RCVTIMEO, &pollTimeout, socklen_t(MemoryLayout<timeval>.size))
            #expect(throws: SystemError.self) { _ = try client.receive() }
        }
    }

    /// The delegate's deadline and the WebSocket's pings share the connection's one handler
    /// deadline: each comes at its own time, neither early, and neither puts the other off.
    @Test func aDelegateDeadlineComesBetweenThePings() throws {
        let responder = DeadlineResponder(after: .milliseconds(500), cleared: false)
        try Self.withOpenSocket(ping: .milliseconds(300), responder: responder) { client, opened, _ throws in
            #expect(try client.receive(exactly: 2) == [0x89, 0x00])
            #expect(ContinuousClock.now - opened >= .milliseconds(300) - Self.tick)
            #expect(try client.receive(exactly: 5) == [0x81, 0x03] + Array("due".utf8))
            #expect(ContinuousClock.now - opened >= .milliseconds(500) - Self.tick)
            // The pings go on after the delegate's deadline.
            #expect(try client.receive(exactly: 2) == [0x89, 0x00])
            #expect(ContinuousClock.now - opened >= .milliseconds(600) - Self.tick)
        }
    }

    @Test func aClearedDelegateDeadlineNeverComes() throws {
        let responder = DeadlineResponder(after: .milliseconds(100), cleared: true)
        try Self.withOpenSocket(ping: .milliseconds(400), responder: responder) { client, _, _ throws in
            // The first thing after 100 ms is the ping at 400, then the next one: no "due".
            #expect(try client.receive(exactly: 4) == [0x89, 0x00, 0x89, 0x00])
        }
    }
}
