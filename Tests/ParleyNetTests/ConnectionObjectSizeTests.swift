import CParleySystem
@testable import ParleyNet
import Testing

/// The objects every open WebSocket holds for its whole life, against glibc's malloc chunks
/// (16-byte steps: a request of n bytes takes the chunk of n + 8 rounded up, and
/// `malloc_usable_size` reports that chunk less its 8-byte header). A field added or widened
/// that takes one into the next chunk costs 16 bytes a connection, idle or not.
@Suite struct ConnectionObjectSizeTests {
    /// Receives nothing: the WebSocket below is never fed.
    private final class SilentDelegate: WebSocketDelegate {
        func webSocket(_ socket: WebSocketConnection, didReceiveText text: String) {}
        func webSocket(_ socket: WebSocketConnection, didReceiveBinary bytes: [UInt8]) {}
        func webSocketDidClose(_ socket: WebSocketConnection, code: WebSocketCloseCode, reason: String) {}
    }

    private static func usableBytes(of object: AnyObject) -> Int {
        malloc_usable_size(Unmanaged.passUnretained(object).toOpaque())
    }

    @Test func aTCPConnectionFitsTheTwoHundredFortyByteChunk() throws {
        let loop = try EventLoop(index: 0)
        let connection = TCPConnection(fd: -1, loop: loop, state: .open, options: TCPConnectionOptions())
        // 247 bytes with a TLS set-up error of its own (the 256-byte chunk); 231 with it kept
        // in the close reason.
        #expect(Self.usableBytes(of: connection) <= 240 - 8)
    }

    @Test func aWebSocketConnectionFitsTheTwoHundredFiftySixByteChunk() throws {
        let loop = try EventLoop(index: 0)
        let connection = TCPConnection(fd: -1, loop: loop, state: .open, options: TCPConnectionOptions())
        let delegate = SilentDelegate()
        let socket = WebSocketConnection(connection: connection, role: .server, options: WebSocketOptions(pingInterval: nil),
                                         delegate: delegate)
        // 264 bytes with the decoder's header counts as `Int`s (the 272-byte chunk).
        #expect(Self.usableBytes(of: socket) <= 256 - 8)
    }
}
