import Foundation
import Testing
@testable import ParleyNet

/// A file download's pieces are read on the blocking pool, never on the event loop: while a
/// client takes a large file slowly, other connections of the same loop are answered at once.
@Suite struct HTTPResponseFileTests {
    /// Serves one file at every path but `/ws`, which is a WebSocket echo.
    struct FileResponder: HTTPResponder {
        let path: String
        let size: Int
        let pool: BlockingPool

        func respond(to request: HTTPRequest, context: HTTPRequestContext) {
            do {
                let file = try HTTPResponseFile(path: path, offset: 0, length: size, pool: pool)
                context.respond(HTTPResponse(status: .ok, headers: ["Content-Type": "application/octet-stream"], file: file))
            } catch {
                context.respond(HTTPResponse(status: .notFound))
            }
        }

        func webSocketDelegate(for head: HTTPRequestHead, context: HTTPRequestContext) -> WebSocketDelegate? {
            head.path == "/ws" ? EchoSocket() : nil
        }
    }

    /// A WebSocket on a raw socket: the handshake, then one text echo at a time.
    final class EchoClient {
        let socket: BlockingSocket

        init(port: Int) throws {
            socket = try BlockingSocket(port: port, timeoutSeconds: 5)
            try socket.send("GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
            let reply = try socket.receive(until: "\r\n\r\n")
            guard reply.hasPrefix("HTTP/1.1 101") else { throw SystemError(call: "handshake", errno: 0) }
        }

        /// The time one echo takes, after checking that it came back intact.
        func roundTrip(_ text: String) throws -> Duration {
            let clock = ContinuousClock()
            let started = clock.now
            try socket.send(RawFrame.clientText(text))
            let frame = try socket.receive(exactly: 2 + text.utf8.count)
            let elapsed = clock.now - started
            #expect(frame[0] == 0x81 && Int(frame[1]) == text.utf8.count)
            #expect(String(decoding: frame[2...], as: UTF8.self) == text)
            return elapsed
        }
    }

    @Test func aSlowLargeDownloadLeavesTheLoopFreeForOthers() throws {
        // 1 MiB of a pattern with no short period, each copy starting with its own number,
        // so a piece out of place shows.
        let block = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 12) }
        var content: [UInt8] = []
        for index in 0..<64 { content += [UInt8(index)] + block.dropFirst() }
        let size = content.count
        let path = NSTemporaryDirectory() + "parley-download-" + UUID().uuidString
        #expect(FileManager.default.createFile(atPath: path, contents: Data(content)))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let pool = BlockingPool(threadCount: 1, name: "parley-test-pool")
        defer { pool.shutdown() }
        // One loop: the download and the WebSocket share it.
        let group = try EventLoopGroup(loopCount: 1)
        let server = try HTTPServer(group: group, address: SocketAddress(host: "127.0.0.1", port: 0),
                                    configuration: HTTPServer.Configuration(originPolicy: .allowAny),
                                    responder: FileResponder(path: path, size: size, pool: pool))
        defer {
            server.shutdown(timeout: .seconds(2))
            group.shutdown()
        }

        // The pool's only thread is held: a body read anywhere but on the pool would still come.
        let gate = Semaphore()
        pool.submit(on: group.next(), { gate.wait() }, completion: { _ in })
        let download = try BlockingSocket(port: server.localAddress.port, timeoutSeconds: 10)
        download.setReceiveBuffer(16 * 1024)
        try download.send("GET /file HTTP/1.1\r\nHost: x\r\n\r\n")
        let head = try download.receive(until: "\r\n\r\n")
        #expect(head.hasPrefix("HTTP/1.1 200"))
        #expect(head.contains("Content-Length: \(size)"))
        #expect(!download.isReadable(within: 300), "a piece of the body came while the pool was held")
        let echo = try EchoClient(port: server.localAddress.port)
        #expect(try echo.roundTrip("while the pool is held") < .seconds(1))
        gate.signal()

        // The client takes the file slowly; the loop keeps answering the WebSocket meanwhile.
        var received = 0
        var slowest = Duration.zero
        func take(_ max: Int) throws {
            let chunk = try download.receive(max: max)
            try #require(!chunk.isEmpty, "the download ended after \(received) bytes")
            try #require(received + chunk.count <= size, "more bytes than the file has")
            let same = chunk.withUnsafeBytes { got in
                content.withUnsafeBytes { all in
                    guard let start = got.baseAddress, let file = all.baseAddress else { return false }
                    return memcmp(start, file + received, chunk.count) == 0
                }
            }
            #expect(same, "bytes differ from \(received)")
            received += chunk.count
        }
        for round in 0..<60 {
            try take(32 * 1024)
            usleep(10_000)
            if round % 5 == 0 { slowest = max(slowest, try echo.roundTrip("slow reader, round \(round)")) }
        }
        #expect(slowest < .milliseconds(500), "an echo waited \(slowest) behind the download")
        // Then all of it, intact.
        while received < size { try take(1 << 20) }
        #expect(received == size)
        #expect(try echo.roundTrip("after the download") < .seconds(1))
    }
}
