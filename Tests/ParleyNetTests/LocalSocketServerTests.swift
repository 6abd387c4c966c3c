import Foundation
import ParleyNet
import Testing

/// The local (Unix domain) socket under the admin socket: owner-only mode, line exchange
/// with the peer's uid, a stale socket replaced and a live one left alone, the line limit,
/// and the file gone after `stop()`.
@Suite struct LocalSocketServerTests {
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

    @Test func answersEachLineWithThePeersUidAndIsOwnerOnly() throws {
        let path = try directory() + "/admin.sock"
        let server = try echo(path)
        defer { server.stop() }
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let client = try LocalSocketClient(path: path, timeout: .seconds(5))
        #expect(try client.exchange("hello") == "\(getuid()):HELLO")
        // Several lines on one connection, each answered in turn.
        #expect(try client.exchange("again") == "\(getuid()):AGAIN")
        #expect(LocalSocketClient.isListening(path))
    }

    @Test func aLineOverTheLimitIsAnsweredAndTheConnectionClosed() throws {
        let path = try directory() + "/admin.sock"
        let server = try echo(path)
        defer { server.stop() }
        let client = try LocalSocketClient(path: path, timeout: .seconds(5))
        #expect(try client.exchange(String(repeating: "x", count: 200)) == "too long")
        #expect(throws: LocalSocketError.self) { try client.exchange("after") }
        // The server goes on for the next connection.
        #expect(try LocalSocketClient(path: path, timeout: .seconds(5)).exchange("next") == "\(getuid()):NEXT")
    }

    @Test func aStaleSocketIsReplacedALiveOneRefusedAndStopRemovesTheFile() throws {
        let path = try directory() + "/admin.sock"
        let first = try echo(path)
        // A second server on the same path while the first answers: refused, first untouched.
        #expect(throws: LocalSocketError.inUse(path)) { _ = try echo(path) }
        #expect(try LocalSocketClient(path: path, timeout: .seconds(5)).exchange("a") == "\(getuid()):A")
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
        #expect(try LocalSocketClient(path: path, timeout: .seconds(5)).exchange("b") == "\(getuid()):B")

        // Anything else at the path is never removed.
        let file = try directory() + "/not-a-socket"
        FileManager.default.createFile(atPath: file, contents: Data("keep".utf8))
        #expect(throws: LocalSocketError.notASocket(file)) { _ = try echo(file) }
        #expect(FileManager.default.contents(atPath: file) == Data("keep".utf8))
    }
}
