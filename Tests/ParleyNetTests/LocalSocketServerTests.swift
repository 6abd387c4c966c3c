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
            let client = try LocalSocketClient(path: path, timeout: .seconds(5))
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
            let client = try LocalSocketClient(path: path, timeout: .seconds(5))
            let first = try client.exchange(String(repeating: "x", count: 10_000))
            let closed = (try? client.exchange("after")) == nil
            // The server goes on for the next connection.
            return (first, closed, try LocalSocketClient(path: path, timeout: .seconds(5)).exchange("next"))
        }
        #expect(first == "too long" && closed && next == "\(getuid()):NEXT")
    }

    @Test func aStaleSocketIsReplacedALiveOneRefusedAndStopRemovesTheFile() async throws {
        let path = try directory() + "/admin.sock"
        let first = try echo(path)
        // A second server on the same path while the first answers: refused, first untouched.
        #expect(throws: LocalSocketError.inUse(path)) { _ = try echo(path) }
        #expect(try await offPool { try LocalSocketClient(path: path, timeout: .seconds(5)).exchange("a") } == "\(getuid()):A")
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
        #expect(try await offPool { try LocalSocketClient(path: path, timeout: .seconds(5)).exchange("b") } == "\(getuid()):B")

        // Anything else at the path is never removed.
        let file = try directory() + "/not-a-socket"
        FileManager.default.createFile(atPath: file, contents: Data("keep".utf8))
        #expect(throws: LocalSocketError.notASocket(file)) { _ = try echo(file) }
        #expect(FileManager.default.contents(atPath: file) == Data("keep".utf8))
    }
}
