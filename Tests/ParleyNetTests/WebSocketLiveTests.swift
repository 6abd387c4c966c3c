import Testing
@testable import ParleyNet

/// Records a client WebSocket's life for assertions.
final class ProbeSocket: WebSocketDelegate, @unchecked Sendable {
    // Written on the client loop, read by the test through `Locked`.
    let state = Locked(ProbeState())
    var socket: WebSocketConnection?
    let onOpen: ((WebSocketConnection) -> Void)?

    init(onOpen: ((WebSocketConnection) -> Void)? = nil) { self.onOpen = onOpen }

    func webSocketDidOpen(_ socket: WebSocketConnection) {
        self.socket = socket
        state.mutate { $0.opened = true }
        onOpen?(socket)
    }
    func webSocket(_ socket: WebSocketConnection, didReceiveText text: String) {
        state.mutate { $0.texts.append(text) }
    }
    func webSocket(_ socket: WebSocketConnection, didReceiveBinary bytes: [UInt8]) {
        state.mutate { $0.binaries.append(bytes) }
    }
    func webSocketDidClose(_ socket: WebSocketConnection, code: WebSocketCloseCode, reason: String) {
        state.mutate { $0.closeCode = code.rawValue }
    }
    func webSocketDidFailToConnect(reason: String) {
        state.mutate { $0.failure = reason }
    }
}

struct ProbeState: Sendable {
    var opened = false
    var texts: [String] = []
    var binaries: [[UInt8]] = []
    var closeCode: UInt16?
    var failure: String?
}

@Suite struct WebSocketLiveTests {
    static func connect(_ port: Int, path: String = "/ws", origin: String? = nil, on loop: EventLoop,
                        probe: ProbeSocket) {
        loop.execute {
            do {
                try WebSocketClient.connect(to: SocketAddress(host: "127.0.0.1", port: port), path: path,
                                            origin: origin, on: loop, delegate: probe)
            } catch {
                probe.webSocketDidFailToConnect(reason: "\(error)")
            }
        }
    }

    @Test func thousandConcurrentClientsEcho() throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let clients = try EventLoopGroup(loopCount: 2, name: "test-client")
        defer { clients.shutdown() }
        let probes = (0..<1000).map { i in ProbeSocket { $0.send(text: "message \(i)") } }
        for probe in probes { Self.connect(server.port, on: clients.next(), probe: probe) }
        for (i, probe) in probes.enumerated() {
            #expect(probe.state.wait(seconds: 20) { $0.texts == ["message \(i)"] }, "client \(i): \(probe.state.value)")
        }
        #expect(server.group.metrics.openWebSockets == 1000)
        #expect(server.group.metrics.webSocketMessagesIn == 1000)
    }

    @Test func largeFragmentedAndBinaryMessagesRoundTrip() throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let clients = try EventLoopGroup(loopCount: 1, name: "test-client")
        defer { clients.shutdown() }
        let big = String(repeating: "漢字 and ascii ", count: 3000)
        let probe = ProbeSocket { socket in
            socket.send(text: big)
            socket.send(binary: [0, 1, 2, 255])
        }
        Self.connect(server.port, on: clients.next(), probe: probe)
        #expect(probe.state.wait { $0.texts.count == 1 && $0.binaries.count == 1 })
        #expect(probe.state.value.texts.first == big)
        #expect(probe.state.value.binaries.first == [0, 1, 2, 255])
    }

    @Test func shutdownClosesWebSocketsWithGoingAway() throws {
        let server = try TestHTTPServer()
        let clients = try EventLoopGroup(loopCount: 1, name: "test-client")
        defer { clients.shutdown() }
        let probes = (0..<20).map { _ in ProbeSocket() }
        for probe in probes { Self.connect(server.port, on: clients.next(), probe: probe) }
        for probe in probes { #expect(probe.state.wait { $0.opened }) }
        let cut = server.server.shutdown(timeout: .seconds(3))
        #expect(cut == 0)
        for probe in probes { #expect(probe.state.wait { $0.closeCode != nil }) }
        #expect(probes.allSatisfy { $0.state.value.closeCode == 1001 })
        server.group.shutdown()
    }

    @Test func originPolicyRefusesForeignBrowsers() throws {
        let server = try TestHTTPServer(configuration: HTTPServer.Configuration(originPolicy: .allowList(["http://good.example"])))
        defer { server.stop() }
        let clients = try EventLoopGroup(loopCount: 1, name: "test-client")
        defer { clients.shutdown() }
        let bad = ProbeSocket()
        Self.connect(server.port, origin: "http://evil.example", on: clients.next(), probe: bad)
        #expect(bad.state.wait { $0.failure != nil })
        #expect(bad.state.value.failure?.contains("403") == true, "\(bad.state.value)")
        let good = ProbeSocket()
        Self.connect(server.port, origin: "http://good.example", on: clients.next(), probe: good)
        #expect(good.state.wait { $0.opened })
        let noEndpoint = ProbeSocket()
        Self.connect(server.port, path: "/elsewhere", on: clients.next(), probe: noEndpoint)
        #expect(noEndpoint.state.wait { $0.failure != nil })
        #expect(noEndpoint.state.value.failure?.contains("404") == true)
    }

    @Test func protocolErrorsCloseWithTheirCodes() throws {
        let server = try TestHTTPServer(configuration: HTTPServer.Configuration(
            webSocket: WebSocketOptions(limits: WebSocketLimits(maxFrameSize: 1024, maxMessageSize: 4096)), originPolicy: .allowAny))
        defer { server.stop() }
        // Raw sockets, so we can send frames our own client would never produce.
        func handshake() throws -> BlockingSocket {
            let client = try BlockingSocket(port: server.port)
            try client.send("GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
            #expect(try client.receive(until: "\r\n\r\n").hasPrefix("HTTP/1.1 101"))
            return client
        }
        func closeCode(after frame: [UInt8]) throws -> Int? {
            let client = try handshake()
            try client.send(frame)
            let reply = try client.receiveUntilClose()
            guard reply.count >= 4, reply[0] == 0x88 else { return nil }
            return Int(reply[2]) << 8 | Int(reply[3])
        }
        let mask: [UInt8] = [1, 2, 3, 4]
        func masked(_ opcode: UInt8, _ payload: [UInt8], fin: Bool = true) -> [UInt8] {
            var frame: [UInt8] = [(fin ? 0x80 : 0) | opcode]
            if payload.count < 126 { frame.append(0x80 | UInt8(payload.count)) } else { frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)] }
            frame += mask
            frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
            return frame
        }
        #expect(try closeCode(after: [0x81, 0x02, 0x68, 0x69]) == 1002)                 // unmasked from a client
        #expect(try closeCode(after: masked(0x01, [0xC3, 0x28])) == 1007)                // bad UTF-8
        #expect(try closeCode(after: masked(0x02, [UInt8](repeating: 0, count: 1025))) == 1009)  // frame over the limit
        #expect(try closeCode(after: masked(0x09, [0], fin: false)) == 1002)             // fragmented ping
        #expect(try closeCode(after: [0x91, 0x80] + mask) == 1002)                       // reserved bit
        // A normal close is echoed with its code.
        #expect(try closeCode(after: masked(0x08, [0x03, 0xE8])) == 1000)
    }
}
