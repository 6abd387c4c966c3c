@testable import ParleyNet
import Testing
import TestSupport

/// The objects every open WebSocket holds for its whole life, against glibc's malloc chunks
/// (16-byte steps: an instance of n bytes takes the chunk of n + 8 rounded up; `mallocChunk`).
/// A field added or widened that takes one into the next chunk costs 16 bytes a connection,
/// idle or not.
@Suite struct ConnectionObjectSizeTests {
    @Test func aTCPConnectionFitsTheTwoHundredFortyByteChunk() {
        // 247 bytes with a TLS set-up error of its own (the 256-byte chunk); 231 with it kept
        // in the close reason.
        #expect(mallocChunk(of: TCPConnection.self) <= 240)
    }

    @Test func aWebSocketConnectionFitsTheTwoHundredFiftySixByteChunk() {
        // 264 bytes with the decoder's header counts as `Int`s (the 272-byte chunk).
        #expect(mallocChunk(of: WebSocketConnection.self) <= 256)
    }
}
