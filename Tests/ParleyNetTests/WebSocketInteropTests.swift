import Foundation
import Testing
@testable import ParleyNet

/// ParleyNet's WebSocket client against the Python `websockets` server.
@Suite struct WebSocketInteropTests {
    @Test func clientTalksToAForeignServer() throws {
        let peer = try PythonPeer(script: "ws_echo_server.py", arguments: ["--lifetime", "60"])
        let port = try #require(Int(peer.firstLine()), "the Python peer did not start (run make test-deps)")
        let clients = try EventLoopGroup(loopCount: 1, name: "interop-client")
        defer { clients.shutdown() }
        let big = String(repeating: "ŝ", count: 100_000)
        let probe = ProbeSocket { socket in
            socket.send(text: "hello from Swift")
            socket.send(text: big)
            socket.send(binary: [9, 8, 7])
        }
        let loop = clients.next()
        loop.execute {
            do {
                try WebSocketClient.connect(to: SocketAddress(host: "127.0.0.1", port: port), path: "/", on: loop,
                                            options: WebSocketOptions(limits: WebSocketLimits(maxFrameSize: 1 << 20), pingInterval: nil),
                                            delegate: probe)
            } catch {
                probe.webSocketDidFailToConnect(reason: "\(error)")
            }
        }
        #expect(probe.state.wait(seconds: 15) { $0.texts.count == 2 && $0.binaries.count == 1 }, "\(probe.state.value.failure ?? "")")
        #expect(probe.state.value.texts == ["hello from Swift", big])
        #expect(probe.state.value.binaries == [[9, 8, 7]])
        clients.loops[0].execute { probe.socket?.close(code: .normalClosure, reason: "done") }
        #expect(probe.state.wait { $0.closeCode != nil })
        #expect(probe.state.value.closeCode == 1000)
    }
}
