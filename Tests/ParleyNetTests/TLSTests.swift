import Testing
import TestSupport
@testable import ParleyNet

/// Collects what a raw TCP client reads, and optionally switches to TLS when told.
final class ByteProbe: ConnectionHandler, @unchecked Sendable {
    // Touched on the client loop; the test reads through `Locked`.
    struct State: Sendable {
        var connected = false
        var received: [UInt8] = []
        var closeReason: ConnectionCloseReason?
        var text: String { String(decoding: received, as: UTF8.self) }
    }
    let state = Locked(State())
    let onConnect: (TCPConnection) -> Void

    init(onConnect: @escaping (TCPConnection) -> Void = { _ in }) { self.onConnect = onConnect }

    func connectionDidConnect(_ connection: TCPConnection) {
        state.mutate { $0.connected = true }
        onConnect(connection)
    }
    func connection(_ connection: TCPConnection, didRead bytes: UnsafeRawBufferPointer) {
        let copy = Array(bytes)
        state.mutate { $0.received += copy }
    }
    func connection(_ connection: TCPConnection, didCloseWith reason: ConnectionCloseReason) {
        state.mutate { $0.closeReason = reason }
    }
}

/// A plaintext line server: `STARTTLS` switches the connection to TLS (after answering `OK`
/// in the clear); every other line comes back as `echo: <line>`.
final class StartTLSEchoHandler: ConnectionHandler {
    let context: TLSContext
    var line: [UInt8] = []
    init(context: TLSContext) { self.context = context }

    func connection(_ connection: TCPConnection, didRead bytes: UnsafeRawBufferPointer) {
        for byte in bytes {
            guard byte == UInt8(ascii: "\n") else {
                line.append(byte)
                continue
            }
            let text = String(decoding: line, as: UTF8.self)
            line = []
            if text == "STARTTLS" {
                connection.write(ByteChunk.of(string: "OK\n"))
                do { try connection.startTLS(context) } catch { connection.close() }
            } else {
                connection.write(ByteChunk.of(string: "echo: \(text) tls=\(connection.isTLS)\n"))
            }
        }
    }
    func connection(_ connection: TCPConnection, didCloseWith reason: ConnectionCloseReason) {}
}

@Suite struct TLSTests {
    private static func tlsServer(_ certificate: TestCertificate, alpn: [String] = ["http/1.1"]) throws -> (TestHTTPServer, TLSContext) {
        let context = try TLSContext(certificatePath: certificate.certificatePath, keyPath: certificate.keyPath, alpn: alpn)
        var configuration = HTTPServer.Configuration(originPolicy: .allowAny, strictTransportSecurity: "max-age=600")
        configuration.tcp.tls = context
        return (try TestHTTPServer(configuration: configuration), context)
    }

    private static func connectWebSocket(_ port: Int, tls: TLSContext, serverName: String? = nil,
                                         on loop: EventLoop, probe: ProbeSocket) {
        loop.execute {
            do {
                try WebSocketClient.connect(to: SocketAddress(host: "127.0.0.1", port: port), path: "/ws", host: "localhost",
                                            on: loop, tls: tls, serverName: serverName, delegate: probe)
            } catch {
                probe.webSocketDidFailToConnect(reason: "\(error)")
            }
        }
    }

    private static func connectRaw(_ port: Int, tls: TLSContext?, serverName: String? = nil, on loop: EventLoop,
                                   probe: ByteProbe) {
        loop.execute {
            do {
                _ = try TCPConnection.connect(to: SocketAddress(host: "127.0.0.1", port: port), on: loop,
                                              tls: tls, serverName: serverName, handler: probe)
            } catch {
                probe.state.mutate { $0.closeReason = .error(SystemError(call: "\(error)", errno: 0)) }
            }
        }
    }

    @Test func webSocketOverTLSEchoesSmallAndLargeMessages() throws {
        let certificate = try TestCertificate()
        defer { certificate.remove() }
        let (server, _) = try Self.tlsServer(certificate)
        defer { server.stop() }
        let clients = try EventLoopGroup(loopCount: 1, name: "test-client")
        defer { clients.shutdown() }
        let trust = try TLSContext(clientCAFile: certificate.certificatePath)
        // Several TLS records (16 KiB each), within the default 64 KiB frame limit.
        let big = String(repeating: "ünïcode and ascii ", count: 3000)
        let probe = ProbeSocket { socket in
            socket.send(text: "hello over tls")
            socket.send(text: big)
        }
        Self.connectWebSocket(server.port, tls: trust, serverName: "localhost", on: clients.next(), probe: probe)
        #expect(probe.state.wait(seconds: 10) { $0.texts.count == 2 }, "\(probe.state.value.failure ?? "no failure")")
        #expect(probe.state.value.texts.first == "hello over tls")
        #expect(probe.state.value.texts.last?.count == big.count)
        #expect(probe.state.value.texts.last == big, "the large message came back different")
    }

    @Test func httpsAnswersWithALPNAndStrictTransportSecurity() throws {
        let certificate = try TestCertificate()
        defer { certificate.remove() }
        let (server, _) = try Self.tlsServer(certificate)
        defer { server.stop() }
        let clients = try EventLoopGroup(loopCount: 1, name: "test-client")
        defer { clients.shutdown() }
        let trust = try TLSContext(clientCAFile: certificate.certificatePath, alpn: ["http/1.1"])
        let alpn = Locked<String?>(nil)
        let probe = ByteProbe { connection in
            alpn.mutate { $0 = connection.tlsApplicationProtocol }
            connection.write(ByteChunk.of(string: "GET /hello/tls HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"))
        }
        // By address: the certificate's IP entry is checked.
        Self.connectRaw(server.port, tls: trust, on: clients.next(), probe: probe)
        #expect(probe.state.wait(seconds: 10) { $0.closeReason != nil && $0.text.contains("hello tls") }, "\(probe.state.value)")
        let text = probe.state.value.text
        #expect(text.hasPrefix("HTTP/1.1 200"))
        #expect(text.contains("Strict-Transport-Security: max-age=600"))
        #expect(alpn.value == "http/1.1")
    }

    @Test func pipelinedRequestsInManyRecordsAreAllAnswered() throws {
        // 40 requests, one TLS record each, arriving together: every record in TLS's input
        // buffer is decrypted and handed over, none left behind when the socket is drained.
        let certificate = try TestCertificate()
        defer { certificate.remove() }
        let (server, _) = try Self.tlsServer(certificate)
        defer { server.stop() }
        let clients = try EventLoopGroup(loopCount: 1, name: "test-client")
        defer { clients.shutdown() }
        let trust = try TLSContext(clientCAFile: certificate.certificatePath)
        // One TLS record each (one write each), all flushed together in one segment.
        let requests = (0..<40).map { "GET /hello/n\($0) HTTP/1.1\r\nHost: localhost\r\n\r\n" }
        let probe = ByteProbe { connection in
            for request in requests { connection.write(ByteChunk.of(string: request)) }
        }
        Self.connectRaw(server.port, tls: trust, serverName: "localhost", on: clients.next(), probe: probe)
        #expect(probe.state.wait(seconds: 10) { $0.text.contains("hello n39") }, "\(probe.state.value.text.suffix(200))")
        let text = probe.state.value.text
        #expect((0..<40).allSatisfy { text.contains("hello n\($0)") })
    }

    @Test func aServerNameTheCertificateDoesNotCoverFailsVerification() throws {
        let certificate = try TestCertificate()
        defer { certificate.remove() }
        let (server, _) = try Self.tlsServer(certificate)
        defer { server.stop() }
        let clients = try EventLoopGroup(loopCount: 1, name: "test-client")
        defer { clients.shutdown() }
        let trust = try TLSContext(clientCAFile: certificate.certificatePath)
        let probe = ProbeSocket()
        Self.connectWebSocket(server.port, tls: trust, serverName: "wrong.example", on: clients.next(), probe: probe)
        #expect(probe.state.wait(seconds: 10) { $0.failure != nil })
        #expect(probe.state.value.opened == false)
        #expect(probe.state.value.failure?.contains("certificate verification failed") == true, "\(probe.state.value)")
    }

    @Test func aCertificateFromAnUnknownCAFailsVerification() throws {
        let certificate = try TestCertificate()
        let stranger = try TestCertificate()
        defer { certificate.remove(); stranger.remove() }
        let (server, _) = try Self.tlsServer(certificate)
        defer { server.stop() }
        let clients = try EventLoopGroup(loopCount: 1, name: "test-client")
        defer { clients.shutdown() }
        let probe = ProbeSocket()
        Self.connectWebSocket(server.port, tls: try TLSContext(clientCAFile: stranger.certificatePath), serverName: "localhost",
                              on: clients.next(), probe: probe)
        #expect(probe.state.wait(seconds: 10) { $0.failure != nil })
        #expect(probe.state.value.opened == false)
        #expect(probe.state.value.failure?.contains("certificate verification failed") == true, "\(probe.state.value)")
        // The system store does not know a test certificate either.
        let system = ProbeSocket()
        Self.connectWebSocket(server.port, tls: try TLSContext(), serverName: "localhost", on: clients.next(), probe: system)
        #expect(system.state.wait(seconds: 10) { $0.failure != nil })
        #expect(system.state.value.failure?.contains("certificate verification failed") == true, "\(system.state.value)")
    }

    @Test func plaintextHTTPToTheTLSPortGetsACleanRefusal() throws {
        let certificate = try TestCertificate()
        defer { certificate.remove() }
        let (server, _) = try Self.tlsServer(certificate)
        defer { server.stop() }
        let socket = try BlockingSocket(port: server.port)
        try socket.send("GET /hello/x HTTP/1.1\r\nHost: localhost\r\n\r\n")
        let answer = String(decoding: try socket.receiveUntilClose(), as: UTF8.self)
        #expect(answer.hasPrefix("HTTP/1.1 400 Bad Request\r\n"))
        #expect(answer.contains("https://"))
        #expect(answer.contains("Connection: close"))
    }

    @Test func startTLSSwitchesAnOpenConnection() throws {
        let certificate = try TestCertificate()
        defer { certificate.remove() }
        let context = try TLSContext(certificatePath: certificate.certificatePath, keyPath: certificate.keyPath)
        let group = try EventLoopGroup(loopCount: 1)
        defer { group.shutdown() }
        let server = try TCPServer(group: group, address: SocketAddress(host: "127.0.0.1", port: 0)) { _ in
            StartTLSEchoHandler(context: context)
        }
        defer { server.shutdown(timeout: .seconds(1)) }
        let clients = try EventLoopGroup(loopCount: 1, name: "test-client")
        defer { clients.shutdown() }
        let trust = try TLSContext(clientCAFile: certificate.certificatePath)
        let connection = Locked<TCPConnection?>(nil)
        let probe = ByteProbe { open in
            connection.mutate { $0 = open }
            open.write(ByteChunk.of(string: "one\nSTARTTLS\n"))
        }
        let loop = clients.next()
        Self.connectRaw(server.localAddress.port, tls: nil, on: loop, probe: probe)
        #expect(probe.state.wait(seconds: 10) { $0.text == "echo: one tls=false\nOK\n" }, "\(probe.state.value)")
        loop.execute {
            // The client's side of the switch, on the same connection.
            guard let open = connection.value else { return }
            probe.state.mutate { $0.received = [] }
            do {
                try open.startTLS(trust, serverName: "localhost")
                open.write(ByteChunk.of(string: "two\n"))
            } catch {
                open.close()
            }
        }
        #expect(probe.state.wait(seconds: 10) { $0.text == "echo: two tls=true\n" }, "\(probe.state.value)")
        #expect(connection.value?.isTLS == true)
    }

    @Test func aReloadedCertificateServesNewHandshakesAndOpenConnectionsGoOn() throws {
        let first = try TestCertificate(commonName: "first")
        let second = try TestCertificate(commonName: "second")
        defer { first.remove(); second.remove() }
        let (server, context) = try Self.tlsServer(first)
        defer { server.stop() }
        let clients = try EventLoopGroup(loopCount: 1, name: "test-client")
        defer { clients.shutdown() }
        let open = ProbeSocket { $0.send(text: "before") }
        Self.connectWebSocket(server.port, tls: try TLSContext(clientCAFile: first.certificatePath), serverName: "localhost",
                              on: clients.next(), probe: open)
        #expect(open.state.wait(seconds: 10) { $0.texts == ["before"] })

        #expect(throws: TLSError.self) {
            try context.reload(certificatePath: second.certificatePath, keyPath: first.keyPath)
        }
        try context.reload(certificatePath: second.certificatePath, keyPath: second.keyPath)

        let trustsSecond = ProbeSocket { $0.send(text: "after") }
        Self.connectWebSocket(server.port, tls: try TLSContext(clientCAFile: second.certificatePath), serverName: "localhost",
                              on: clients.next(), probe: trustsSecond)
        #expect(trustsSecond.state.wait(seconds: 10) { $0.texts == ["after"] }, "\(trustsSecond.state.value)")
        let trustsFirst = ProbeSocket()
        Self.connectWebSocket(server.port, tls: try TLSContext(clientCAFile: first.certificatePath), serverName: "localhost",
                              on: clients.next(), probe: trustsFirst)
        #expect(trustsFirst.state.wait(seconds: 10) { $0.failure != nil })
        // The connection made before the reload still works.
        clients.next().execute { open.socket?.send(text: "still here") }
        #expect(open.state.wait(seconds: 10) { $0.texts == ["before", "still here"] })
    }

    @Test func badCertificateFilesAreClearErrors() throws {
        let certificate = try TestCertificate()
        let other = try TestCertificate()
        defer { certificate.remove(); other.remove() }
        #expect(throws: TLSError.self) { try TLSContext(certificatePath: "/nonexistent.pem", keyPath: certificate.keyPath) }
        #expect(throws: TLSError.self) { try TLSContext(certificatePath: certificate.certificatePath, keyPath: other.keyPath) }
        #expect(throws: TLSError.self) { try TLSContext(clientCAFile: "/nonexistent.pem") }
    }

    @Test func cryptoHashesMatchKnownVectors() {
        func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
        #expect(hex(CryptoHash.sha256.digest(Array("abc".utf8)))
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(hex(CryptoHash.sha512.digest(Array("abc".utf8))).hasPrefix("ddaf35a193617abacc417349ae204131"))
        // RFC 4231 test case 2.
        #expect(hex(CryptoHash.sha256.hmac(key: Array("Jefe".utf8), Array("what do ya want for nothing?".utf8)))
                == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        // RFC 6070 test case 2 (PBKDF2-HMAC-SHA1).
        #expect(hex(CryptoHash.sha1.pbkdf2(password: Array("password".utf8), salt: Array("salt".utf8), iterations: 2))
                == "ea6c014dc72d6f8ccd1ed92ace1d41f0d8de8957")
        #expect(CryptoRandom.bytes(32) != CryptoRandom.bytes(32))
        #expect(CryptoRandom.equal([1, 2, 3], [1, 2, 3]) && !CryptoRandom.equal([1, 2, 3], [1, 2, 4]))
    }
}
