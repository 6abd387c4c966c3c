import CParleySystem
import Foundation
import ParleyNet
import Testing

/// The local (Unix domain) socket under the admin socket: owner-only mode, line exchange
/// with the peer's uid, a stale socket replaced and a live one left alone, the line limit,
/// and the file gone after `stop()`.
@Suite struct LocalSocketServerTests {
    /// Runs blocking client calls on a thread of their own: on the cooperative pool (two
    /// threads on a two-core machine) they could starve the server's handler tasks.
    private func offPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try work() }) }.start()
        }
    }

    /// Generous: the server's handler runs as a task, and the suite's other tests may keep the
    /// task pool busy for seconds.
    static let clientTimeout = Duration.seconds(30)

    private func directory() throws -> String {
        let path = NSTemporaryDirectory() + "parley-sock-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    private func echo(_ path: String) throws -> LocalSocketServer {
        try LocalSocketServer(path: path, maxLineBytes: 64, timeout: .seconds(5), tooLong: "too long") { line, peer in
            "\(peer.uid):\(line.uppercased())"
        }
    }

    @Test func answersEachLineWithThePeersUidAndIsOwnerOnly() async throws {
        let path = try directory() + "/admin.sock"
        let server = try echo(path)
        defer { server.stop() }
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let answers = try await offPool {
            let client = try LocalSocketClient(path: path, timeout: Self.clientTimeout)
            // Several lines on one connection, each answered in turn.
            return [try client.exchange("hello"), try client.exchange("again")]
        }
        #expect(answers == ["\(getuid()):HELLO", "\(getuid()):AGAIN"])
        #expect(LocalSocketClient.isListening(path))
    }

    @Test func aLineOverTheLimitIsAnsweredAndTheConnectionClosed() async throws {
        let path = try directory() + "/admin.sock"
        let server = try echo(path)
        defer { server.stop() }
        let (first, closed, next) = try await offPool {
            let client = try LocalSocketClient(path: path, timeout: Self.clientTimeout)
            let first = try client.exchange(String(repeating: "x", count: 10_000))
            let closed = (try? client.exchange("after")) == nil
            // The server goes on for the next connection.
            return (first, closed, try LocalSocketClient(path: path, timeout: Self.clientTimeout).exchange("next"))
        }
        #expect(first == "too long" && closed && next == "\(getuid()):NEXT")
    }

    /// Connects without `LocalSocketClient` (which always ends a line), sends `bytes` as they
    /// are and returns everything the server sends until it closes (nil if it never does).
    private func raw(_ path: String, _ bytes: [UInt8]) -> [UInt8]? {
        let fd = parley_unix_connect(path)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        _ = parley_set_timeouts(fd, 30)
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return -1 }
                return parley_send_nosignal(fd, base + sent, UInt(buffer.count - sent))
            }
            // The server may close once it has seen too much; what it answered is still there to read.
            guard count > 0 else { break }
            sent += count
        }
        // The end of the input, so that a server waiting for more ends the conversation.
        shutdown(fd, Int32(SHUT_WR))
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while received.count < 1 << 20 {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            // A server that closed with input unread resets the connection after its answer.
            if count == 0 || (count < 0 && errno == ECONNRESET) { return received }
            guard count > 0 else { return nil }
            received += chunk[..<count]
        }
        return nil
    }

    @Test func anOverLongLineIsRefusedAsItArrivesWithOrWithoutItsNewline() async throws {
        let path = try directory() + "/admin.sock"
        let server = try echo(path)
        defer { server.stop() }
        let limit = 64
        let answers = try await offPool { [self] in
            [
                // Exactly the limit: answered; then the connection ends with the input.
                raw(path, Array(String(repeating: "a", count: limit).utf8) + [10]),
                // One byte over, with its newline in the same write (once answered as a request).
                raw(path, Array(String(repeating: "b", count: limit + 1).utf8) + [10]),
                // A good line first, then an over-long one, in one write.
                raw(path, Array("ok\n".utf8) + Array(String(repeating: "c", count: 1_000).utf8) + [10]),
                // No newline at all, and more than the socket buffers: refused without waiting for the silence timeout.
                raw(path, [UInt8](repeating: UInt8(ascii: "d"), count: 4 << 20)),
            ]
        }
        let text = answers.map { $0.map { String(decoding: $0, as: UTF8.self) } }
        let uid = getuid()
        #expect(text[0] == "\(uid):\(String(repeating: "A", count: limit))\n")
        #expect(text[1] == "too long\n")
        #expect(text[2] == "\(uid):OK\ntoo long\n")
        #expect(text[3] == "too long\n")
        // The server serves the next connection as before.
        #expect(try await offPool { try LocalSocketClient(path: path, timeout: Self.clientTimeout).exchange("next") } == "\(uid):NEXT")
    }

    @Test func aStaleSocketIsReplacedALiveOneRefusedAndStopRemovesTheFile() async throws {
        let path = try directory() + "/admin.sock"
        let first = try echo(path)
        // A second server on the same path while the first answers: refused, first untouched.
        #expect(throws: LocalSocketError.inUse(path)) { _ = try echo(path) }
        #expect(try await offPool { try LocalSocketClient(path: path, timeout: Self.clientTimeout).exchange("a") } == "\(getuid()):A")
        first.stop()
        #expect(!FileManager.default.fileExists(atPath: path))

        // What a crash leaves: a socket file nobody listens on.
        let stale = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(stale, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(bound == 0)
        close(stale)
        #expect(FileManager.default.fileExists(atPath: path) && !LocalSocketClient.isListening(path))
        let second = try echo(path)
        defer { second.stop() }
        #expect(try await offPool { try LocalSocketClient(path: path, timeout: Self.clientTimeout).exchange("b") } == "\(getuid()):B")

        // Anything else at the path is never removed.
        let file = try directory() + "/not-a-socket"
        FileManager.default.createFile(atPath: file, contents: Data("keep".utf8))
        #expect(throws: LocalSocketError.notASocket(file)) { _ = try echo(file) }
        #expect(FileManager.default.contents(atPath: file) == Data("keep".utf8))
    }

    @Test func aSilentConnectionHoldsUpNoOneAndOnePastTheLimitIsToldBusy() async throws {
        let path = try directory() + "/admin.sock"
        // The silence allowed (60 s) is twice the client's timeout: a server serving one
        // connection at a time would keep the second waiting past it.
        let server = try LocalSocketServer(path: path, maxLineBytes: 64, timeout: .seconds(60), tooLong: "too long",
                                           maxConnections: 2, busy: "busy") { line, _ in line.uppercased() }
        defer { server.stop() }
        let (first, second, refused, freed) = try await offPool { [self] in
            // An operator's idle `parley admin` (connected, says nothing) and a second one: the
            // second is answered, not kept until the first's silence ends.
            let idle = try LocalSocketClient(path: path, timeout: Self.clientTimeout)
            var other: LocalSocketClient? = try LocalSocketClient(path: path, timeout: Self.clientTimeout)
            let second = try other?.exchange("second")
            // Both held open: a third is past the limit, told so and closed (read as raw
            // bytes: the server may close before the request is even sent).
            let refused = raw(path, Array("third\n".utf8)).map { String(decoding: $0, as: UTF8.self) }
            // The idle one still answers, and once one goes, there is room again.
            let first = try idle.exchange("first")
            other = nil
            var freed = ""
            for _ in 0..<100 where freed != "FOURTH" {
                freed = (try? LocalSocketClient(path: path, timeout: Self.clientTimeout).exchange("fourth")) ?? ""
                if freed != "FOURTH" { usleep(20_000) }
            }
            return (first, second, refused, freed)
        }
        #expect(first == "FIRST")
        #expect(second == "SECOND")
        #expect(refused == "busy\n")
        #expect(freed == "FOURTH")
    }
}
