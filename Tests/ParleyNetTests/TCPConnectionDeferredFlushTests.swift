import Testing
@testable import ParleyNet

/// Writes given a delivery window (`write(_:flushWithin:)`) wait for the loop's window to end,
/// or for a plain write to the same connection, and then go out once, in order.
@Suite struct TCPConnectionDeferredFlushTests {
    /// A server whose connections write each byte they read back: lowercase letters with the
    /// window, anything else plainly. It remembers its connections in the order they first read.
    final class Fixture {
        let group: EventLoopGroup
        let server: TCPServer
        let connections: Locked<[TCPConnection]>
        let bytesRead: Locked<Int>
        let reasons: Locked<[ConnectionCloseReason]>

        init(window: Duration, options: TCPConnectionOptions = .init()) throws {
            let connections = Locked<[TCPConnection]>([]), bytesRead = Locked(0), reasons = Locked<[ConnectionCloseReason]>([])
            (self.connections, self.bytesRead, self.reasons) = (connections, bytesRead, reasons)
            group = try EventLoopGroup(loopCount: 1)
            server = try TCPServer(group: group, address: SocketAddress(host: "127.0.0.1", port: 0),
                                   options: TCPServerOptions(connection: options)) { _ in
                Echo(window: window, connections: connections, bytesRead: bytesRead, reasons: reasons)
            }
        }

        var port: Int { server.localAddress.port }

        /// Runs `body` on the server's loop and returns its result.
        func onLoop<T: Sendable>(_ body: @escaping @Sendable (EventLoop) -> T) throws -> T {
            let loop = group.loops[0]
            let result = Locked<T?>(nil)
            loop.execute { result.mutate { $0 = body(loop) } }
            try #require(result.wait { $0 != nil })
            return try #require(result.value)
        }

        /// Connects a client that sends `text`, and waits until the server has read it.
        func client(sending text: String) throws -> BlockingSocket {
            let client = try BlockingSocket(port: port)
            let expected = bytesRead.value + text.utf8.count
            try client.send(text)
            try #require(bytesRead.wait { $0 >= expected })
            return client
        }

        func stop() {
            _ = server.shutdown(timeout: .seconds(1))
            group.shutdown()
        }
    }

    final class Echo: ConnectionHandler {
        let window: Duration
        let connections: Locked<[TCPConnection]>
        let bytesRead: Locked<Int>
        let reasons: Locked<[ConnectionCloseReason]>

        init(window: Duration, connections: Locked<[TCPConnection]>, bytesRead: Locked<Int>, reasons: Locked<[ConnectionCloseReason]>) {
            self.window = window
            self.connections = connections
            self.bytesRead = bytesRead
            self.reasons = reasons
        }

        func connection(_ connection: TCPConnection, didRead bytes: UnsafeRawBufferPointer) {
            for byte in bytes {
                if (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) {
                    connection.write(ByteChunk.of([byte]), flushWithin: window)
                } else if byte == UInt8(ascii: "#") {
                    // Twenty KiB with the window: for the queue's bound.
                    connection.write(ByteChunk.of([UInt8](repeating: 7, count: 20 * 1024)), flushWithin: window)
                } else {
                    connection.write(ByteChunk.of([byte]))
                }
            }
            connections.mutate { list in if !list.contains(where: { $0 === connection }) { list.append(connection) } }
            let count = bytes.count
            bytesRead.mutate { $0 += count }
        }

        func connection(_ connection: TCPConnection, didCloseWith reason: ConnectionCloseReason) {
            reasons.mutate { $0.append(reason) }
        }
    }

    /// An hour-long window never ends by itself during the test: only what the test does
    /// flushes the deferred bytes.
    static let longWindow = Duration.seconds(3600)

    @Test func deferredWritesWaitForTheWindowAndThenGoOutOnceInOrder() throws {
        let fixture = try Fixture(window: Self.longWindow)
        defer { fixture.stop() }
        let client = try fixture.client(sending: "abc")
        let connection = try #require(fixture.connections.value.first)
        // Turns later, nothing was written (queued bytes only shrink by writing), and the
        // connection waits in the window once for its three writes.
        let waiting = try fixture.onLoop { loop in [connection.queuedBytes, loop.deferredFlushCount] }
        #expect(waiting == [3, 1])
        // What the window's timer does when it fires.
        _ = try fixture.onLoop { loop in loop.flushDeferredNow() }
        #expect(try client.receive(exactly: 3) == Array("abc".utf8))
        // Once: the next byte the peer gets is the next write's.
        try client.send("Z")
        #expect(try client.receive(exactly: 1) == Array("Z".utf8))
        let after = try fixture.onLoop { loop in [connection.queuedBytes, loop.deferredFlushCount] }
        #expect(after == [0, 0])
    }

    @Test func aPlainWriteFlushesTheDeferredOnesBeforeIt() throws {
        let fixture = try Fixture(window: Self.longWindow)
        defer { fixture.stop() }
        let client = try fixture.client(sending: "ab")
        #expect(try fixture.onLoop { $0.deferredFlushCount } == 1)
        try client.send("Cd")
        #expect(try client.receive(exactly: 3) == Array("abC".utf8))
        // "d" came after the plain write in the same turn: it went with it, and the
        // connection left the window.
        #expect(try client.receive(exactly: 1) == Array("d".utf8))
        let connection = try #require(fixture.connections.value.first)
        #expect(try fixture.onLoop { loop in loop.deferredFlushCount == 0 && connection.deferredFlushSlot == nil })
    }

    @Test func theWindowsTimerFlushesEveryWaitingConnection() throws {
        let fixture = try Fixture(window: .milliseconds(2))
        defer { fixture.stop() }
        let first = try BlockingSocket(port: fixture.port)
        let second = try BlockingSocket(port: fixture.port)
        try first.send("xy")
        try second.send("pq")
        #expect(try first.receive(exactly: 2) == Array("xy".utf8))
        #expect(try second.receive(exactly: 2) == Array("pq".utf8))
        #expect(try fixture.onLoop { $0.deferredFlushCount } == 0)
    }

    /// A closed connection leaves the window at once (the last one takes its place), and the
    /// window's end skips it.
    @Test func aConnectionClosedWhileWaitingLeavesTheWindow() throws {
        let fixture = try Fixture(window: Self.longWindow)
        defer { fixture.stop() }
        let first = try fixture.client(sending: "a")
        let second = try fixture.client(sending: "b")
        let connections = fixture.connections.value
        try #require(connections.count == 2)
        let (closing, staying) = (connections[0], connections[1])
        let slots = try fixture.onLoop { loop in
            let before = [loop.deferredFlushCount, closing.deferredFlushSlot ?? -1, staying.deferredFlushSlot ?? -1]
            closing.closeNow()
            return before + [loop.deferredFlushCount, closing.deferredFlushSlot ?? -1, staying.deferredFlushSlot ?? -1]
        }
        #expect(slots == [2, 0, 1, 1, -1, 0])
        #expect(try first.receiveUntilClose().isEmpty, "closing at once drops what was queued")
        _ = try fixture.onLoop { loop in loop.flushDeferredNow() }
        #expect(try second.receive(exactly: 1) == Array("b".utf8))
    }

    @Test func aZeroWindowWritesInTheSameTurn() throws {
        let fixture = try Fixture(window: .zero)
        defer { fixture.stop() }
        let client = try BlockingSocket(port: fixture.port)
        try client.send("ab")
        #expect(try client.receive(exactly: 2) == Array("ab".utf8))
        #expect(try fixture.onLoop { $0.deferredFlushCount } == 0)
    }

    /// Deferred bytes count against the queue's bound as soon as they are queued.
    @Test func deferredBytesCountAgainstTheQueueBound() throws {
        let fixture = try Fixture(window: Self.longWindow, options: TCPConnectionOptions(maxQueuedBytes: 64 * 1024))
        defer { fixture.stop() }
        let client = try BlockingSocket(port: fixture.port)
        try client.send("####")
        #expect(fixture.reasons.wait { !$0.isEmpty })
        #expect(fixture.reasons.value == [.slowPeer])
        #expect(try fixture.onLoop { $0.deferredFlushCount } == 0)
    }

    /// A loop that stops writes what waited for its window, like its other last writes.
    @Test func aStoppingLoopFlushesTheWindow() throws {
        let fixture = try Fixture(window: Self.longWindow)
        let client = try fixture.client(sending: "ab")
        #expect(try fixture.onLoop { $0.deferredFlushCount } == 1)
        // The loops stop without the server's shutdown, which needs running loops.
        fixture.group.shutdown()
        #expect(try client.receive(exactly: 2) == Array("ab".utf8))
    }
}
