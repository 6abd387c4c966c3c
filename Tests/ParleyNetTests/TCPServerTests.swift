import Glibc
import Testing
@testable import ParleyNet

/// Echoes every byte back.
final class EchoHandler: ConnectionHandler {
    func connection(_ connection: TCPConnection, didRead bytes: UnsafeRawBufferPointer) {
        connection.write(Array(bytes))
    }
    func connection(_ connection: TCPConnection, didCloseWith reason: ConnectionCloseReason) {}
}

/// Never writes; records why its connection closed.
final class RecordingHandler: ConnectionHandler {
    let reasons: Locked<[ConnectionCloseReason]>
    let onRead: (@Sendable (TCPConnection) -> Void)?
    init(reasons: Locked<[ConnectionCloseReason]>, onRead: (@Sendable (TCPConnection) -> Void)? = nil) {
        self.reasons = reasons
        self.onRead = onRead
    }
    func connection(_ connection: TCPConnection, didRead bytes: UnsafeRawBufferPointer) { onRead?(connection) }
    func connection(_ connection: TCPConnection, didCloseWith reason: ConnectionCloseReason) {
        reasons.mutate { $0.append(reason) }
    }
}

/// Hands every read to a closure that writes.
final class WritingHandler: ConnectionHandler {
    let onRead: (TCPConnection, UnsafeRawBufferPointer) -> Void
    init(onRead: @escaping (TCPConnection, UnsafeRawBufferPointer) -> Void) { self.onRead = onRead }
    func connection(_ connection: TCPConnection, didRead bytes: UnsafeRawBufferPointer) { onRead(connection, bytes) }
    func connection(_ connection: TCPConnection, didCloseWith reason: ConnectionCloseReason) {}
}

@Suite struct TCPServerTests {
    @Test func echoesOnEveryLoop() throws {
        let group = try EventLoopGroup(loopCount: 2)
        defer { group.shutdown() }
        let server = try TCPServer(group: group, address: SocketAddress(host: "127.0.0.1", port: 0)) { _ in EchoHandler() }
        defer { server.shutdown(timeout: Duration.seconds(1)) }
        #expect(server.localAddress.port != 0)
        let clients = try (0..<20).map { _ in try BlockingSocket(port: server.localAddress.port) }
        for (i, client) in clients.enumerated() {
            try client.send("hello \(i)")
            #expect(try client.receive(exactly: "hello \(i)".utf8.count) == Array("hello \(i)".utf8))
        }
        #expect(group.metrics.acceptedConnections == 20)
    }

    @Test func largeWritesArriveWhole() throws {
        let group = try EventLoopGroup(loopCount: 1)
        defer { group.shutdown() }
        let server = try TCPServer(group: group, address: SocketAddress(host: "127.0.0.1", port: 0)) { _ in EchoHandler() }
        defer { server.shutdown(timeout: Duration.seconds(1)) }
        let client = try BlockingSocket(port: server.localAddress.port)
        let payload = (0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        // Send and receive concurrently-ish: write in slices and read back what has come.
        var received: [UInt8] = []
        var offset = 0
        while offset < payload.count {
            let end = min(offset + 100_000, payload.count)
            try client.send(Array(payload[offset..<end]))
            offset = end
            while received.count < offset - 200_000 { received += try client.receive() }
        }
        while received.count < payload.count { received += try client.receive() }
        #expect(received == payload)
    }

    /// A chunk queued alone is written in pieces as the peer reads; chunks queued behind its
    /// unwritten rest (or in the same turn) follow it in order.
    @Test func aLargeLoneWriteAndWritesQueuedBehindItArriveInOrder() throws {
        let big = ByteChunk.of((0..<8_000_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 11) })
        let group = try EventLoopGroup(loopCount: 1)
        defer { group.shutdown() }
        let options = TCPServerOptions(connection: TCPConnectionOptions(maxQueuedBytes: 64 * 1024 * 1024))
        let server = try TCPServer(group: group, address: SocketAddress(host: "127.0.0.1", port: 0), options: options) { _ in
            WritingHandler { connection, bytes in
                for byte in bytes {
                    if byte == UInt8(ascii: "x") { connection.write(big) }
                    if byte == UInt8(ascii: "y") {
                        connection.write(ByteChunk.of([1, 2, 3]))
                        connection.write(ByteChunk.of([4, 5]))
                    }
                }
            }
        }
        defer { server.shutdown(timeout: Duration.seconds(1)) }
        let client = try BlockingSocket(port: server.localAddress.port)
        try client.send("x")
        // Part of the chunk has arrived; 8 MB are more than the socket buffers hold, so the
        // rest is still queued when "y" comes.
        var received = try client.receive()
        try client.send("y")
        while received.count < big.count + 5 {
            let chunk = try client.receive(max: 1 << 20)
            guard !chunk.isEmpty else { break }
            received += chunk
        }
        #expect(received.count == big.count + 5)
        #expect(received.prefix(big.count).elementsEqual(big.withUnsafeBytes { Array($0) }))
        #expect(Array(received.suffix(5)) == [1, 2, 3, 4, 5])
    }

    @Test func idleConnectionIsClosed() throws {
        let reasons = Locked<[ConnectionCloseReason]>([])
        let group = try EventLoopGroup(loopCount: 1)
        defer { group.shutdown() }
        let options = TCPServerOptions(connection: TCPConnectionOptions(idleTimeout: .milliseconds(200)))
        let server = try TCPServer(group: group, address: SocketAddress(host: "127.0.0.1", port: 0), options: options) { _ in
            RecordingHandler(reasons: reasons)
        }
        defer { server.shutdown(timeout: Duration.seconds(1)) }
        let client = try BlockingSocket(port: server.localAddress.port)
        try client.send("x")
        #expect(try client.receiveUntilClose().isEmpty)
        // The handler hears of the close just after the socket is closed: wait for it.
        _ = reasons.wait { !$0.isEmpty }
        #expect(reasons.value == [.idleTimeout])
        #expect(group.metrics.idleClosed == 1)
    }

    @Test func peerThatNeverReadsIsCutOff() throws {
        let reasons = Locked<[ConnectionCloseReason]>([])
        let group = try EventLoopGroup(loopCount: 1)
        defer { group.shutdown() }
        let options = TCPServerOptions(connection: TCPConnectionOptions(
            writeHighWatermark: 64 * 1024, writeLowWatermark: 16 * 1024,
            maxQueuedBytes: 1 << 30, writeStallTimeout: .milliseconds(300)))
        // A read makes the server write 16 MiB back, far more than socket buffers hold; the
        // peer never reads, so the writes stall.
        let blob = ByteChunk.of([UInt8](repeating: 7, count: 16 * 1024 * 1024))
        let server = try TCPServer(group: group, address: SocketAddress(host: "127.0.0.1", port: 0), options: options) { _ in
            RecordingHandler(reasons: reasons) { connection in connection.write(blob) }
        }
        defer { server.shutdown(timeout: Duration.seconds(1)) }
        let client = try BlockingSocket(port: server.localAddress.port)
        client.setReceiveBuffer(4096)
        try client.send("x")
        _ = reasons.wait { !$0.isEmpty }
        #expect(reasons.value == [.slowPeer])
        #expect(group.metrics.slowPeersClosed == 1)
    }

    @Test func queueOverItsBoundClosesAtOnce() throws {
        let reasons = Locked<[ConnectionCloseReason]>([])
        let group = try EventLoopGroup(loopCount: 1)
        defer { group.shutdown() }
        let options = TCPServerOptions(connection: TCPConnectionOptions(maxQueuedBytes: 512 * 1024))
        let blob = ByteChunk.of([UInt8](repeating: 7, count: 200 * 1024))
        let server = try TCPServer(group: group, address: SocketAddress(host: "127.0.0.1", port: 0), options: options) { _ in
            RecordingHandler(reasons: reasons) { connection in
                for _ in 0..<50 { connection.write(blob) }
            }
        }
        defer { server.shutdown(timeout: Duration.seconds(1)) }
        let client = try BlockingSocket(port: server.localAddress.port)
        client.setReceiveBuffer(4096)
        try client.send("x")
        _ = reasons.wait { !$0.isEmpty }
        #expect(reasons.value == [.slowPeer])
    }

    /// Writes queued in one loop turn are all counted before any is flushed, so the bound is
    /// exact: `maxQueuedBytes` stays open and every byte arrives; one more cuts the peer off.
    @Test(arguments: [0, 1])
    func queueExactlyAtItsBoundStaysOpenAndOneByteMoreCloses(extra: Int) throws {
        let reasons = Locked<[ConnectionCloseReason]>([])
        let group = try EventLoopGroup(loopCount: 1)
        defer { group.shutdown() }
        let bound = 64 * 1024
        let options = TCPServerOptions(connection: TCPConnectionOptions(maxQueuedBytes: bound))
        let server = try TCPServer(group: group, address: SocketAddress(host: "127.0.0.1", port: 0), options: options) { _ in
            RecordingHandler(reasons: reasons) { connection in
                for _ in 0..<4 { connection.write(ByteChunk.of([UInt8](repeating: 7, count: bound / 4))) }
                if extra > 0 { connection.write(ByteChunk.of([UInt8](repeating: 7, count: extra))) }
            }
        }
        defer { server.shutdown(timeout: Duration.seconds(1)) }
        let client = try BlockingSocket(port: server.localAddress.port)
        try client.send("x")
        if extra == 0 {
            #expect(try client.receive(exactly: bound).count == bound)
            #expect(reasons.value.isEmpty)
            #expect(group.metrics.slowPeersClosed == 0)
        } else {
            // Cut off before anything was flushed (a reset counts as nothing received).
            #expect(((try? client.receiveUntilClose()) ?? []).isEmpty)
            _ = reasons.wait { !$0.isEmpty }
            #expect(reasons.value == [.slowPeer])
        }
    }

    @Test func shutdownClosesOpenConnectionsAndStopsAccepting() throws {
        let group = try EventLoopGroup(loopCount: 2)
        defer { group.shutdown() }
        let server = try TCPServer(group: group, address: SocketAddress(host: "127.0.0.1", port: 0)) { _ in EchoHandler() }
        let clients = try (0..<10).map { _ in try BlockingSocket(port: server.localAddress.port) }
        for client in clients { try client.send("a"); _ = try client.receive(exactly: 1) }
        // The clients keep their end open until shutdown returns, so each connection lingers
        // its full 2 s (the default linger timeout, kept to the loop's 50 ms deadline tick):
        // the shutdown's wait must be longer than that for nothing to be cut.
        let cut = server.shutdown(timeout: Duration.seconds(3))
        #expect(cut == 0)
        for client in clients { #expect(try client.receiveUntilClose().isEmpty) }
        #expect(throws: SystemError.self) { _ = try BlockingSocket(port: server.localAddress.port) }
        #expect(group.metrics.openConnections == 0)
    }

    @Test func connectionLimitRefusesExtraClients() throws {
        let group = try EventLoopGroup(loopCount: 1)
        defer { group.shutdown() }
        let server = try TCPServer(group: group, address: SocketAddress(host: "127.0.0.1", port: 0),
                                   options: TCPServerOptions(maxConnections: 3)) { _ in EchoHandler() }
        defer { server.shutdown(timeout: Duration.seconds(1)) }
        let kept = try (0..<3).map { _ in try BlockingSocket(port: server.localAddress.port) }
        for client in kept { try client.send("a"); _ = try client.receive(exactly: 1) }
        let extra = try BlockingSocket(port: server.localAddress.port)
        #expect(try extra.receiveUntilClose().isEmpty)
        #expect(group.metrics.refusedConnections == 1)
    }
}

@Suite struct PerAddressLimitTests {
    @Test func oneAddressGetsItsShareOthersStillGetIn() throws {
        let group = try EventLoopGroup(loopCount: 2)
        defer { group.shutdown() }
        let server = try TCPServer(group: group, address: SocketAddress(host: "127.0.0.1", port: 0),
                                   options: TCPServerOptions(maxConnectionsPerAddress: 3)) { _ in EchoHandler() }
        defer { server.shutdown(timeout: .seconds(1)) }
        var kept = try (0..<3).map { _ in try BlockingSocket(port: server.localAddress.port) }
        for client in kept { try client.send("a"); _ = try client.receive(exactly: 1) }
        let fourth = try BlockingSocket(port: server.localAddress.port)
        #expect(try fourth.receiveUntilClose().isEmpty)
        // Another loopback address is another client.
        let other = try BlockingSocket(port: server.localAddress.port, source: "127.0.0.2")
        try other.send("b")
        #expect(try other.receive(exactly: 1) == [UInt8(ascii: "b")])
        // A place frees up when a connection closes.
        kept.removeFirst()
        Thread_sleepMilliseconds(200)
        let again = try BlockingSocket(port: server.localAddress.port)
        try again.send("c")
        #expect(try again.receive(exactly: 1) == [UInt8(ascii: "c")])
        #expect(group.metrics.refusedConnections == 1)
    }
}

@Suite struct PortOwnershipTests {
    @Test func aSecondServerCannotShareAFixedPort() throws {
        let group = try EventLoopGroup(loopCount: 2)
        defer { group.shutdown() }
        let first = try TCPServer(group: group, address: SocketAddress(host: "127.0.0.1", port: 0)) { _ in EchoHandler() }
        defer { first.shutdown(timeout: .seconds(1)) }
        #expect(throws: SystemError(call: "bind", errno: EADDRINUSE)) {
            _ = try TCPServer(group: group, address: SocketAddress(host: "127.0.0.1", port: first.localAddress.port)) { _ in EchoHandler() }
        }
    }
}
