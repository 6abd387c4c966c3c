import Foundation
import ParleyNet
import ParleySync

/// A WebSocket client for tests, on ParleyNet's client, with an async API: send JSON, wait
/// for the next frame that matches.
final class TestWebSocket: WebSocketDelegate, @unchecked Sendable {
    // Callbacks run on `loop`; shared state is behind `state`'s lock.
    private struct State {
        var opened = false
        /// Raw text frames (Sendable); parsed when matched.
        var frames: [String] = []
        var closeCode: UInt16?
        var failure: String?
    }
    private let state = PThreadMutex<State>(State())
    private var socket: WebSocketConnection?
    let loop: EventLoop
    private static let group = try! EventLoopGroup(loopCount: 1, name: "test-ws")

    init(port: Int, path: String = "/v1/ws", origin: String? = nil) async throws {
        loop = Self.group.next()
        let loop = self.loop
        loop.execute {
            do {
                try WebSocketClient.connect(to: SocketAddress(host: "127.0.0.1", port: port), path: path,
                                            host: "127.0.0.1:\(port)", origin: origin, on: loop, delegate: self)
            } catch {
                self.webSocketDidFailToConnect(reason: "\(error)")
            }
        }
        try await waitFor("open") { $0.opened || $0.failure != nil || $0.closeCode != nil }
        if let failure = state.withLock({ $0.failure }) { throw TestFailure(failure) }
    }

    func webSocketDidOpen(_ socket: WebSocketConnection) {
        self.socket = socket
        state.withLock { $0.opened = true }
    }
    func webSocket(_ socket: WebSocketConnection, didReceiveText text: String) {
        state.withLock { $0.frames.append(text) }
    }
    func webSocketDidClose(_ socket: WebSocketConnection, code: WebSocketCloseCode, reason: String) {
        state.withLock { $0.closeCode = code.rawValue }
    }
    func webSocketDidFailToConnect(reason: String) {
        state.withLock { $0.failure = reason }
    }

    func send(_ object: [String: Any]) throws {
        let text = String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
        loop.execute { self.socket?.send(text: text) }
    }

    func sendRaw(_ text: String) {
        loop.execute { self.socket?.send(text: text) }
    }

    /// Sends a request and returns its response frame.
    func call(_ op: String, _ data: [String: Any] = [:], id: String = UUID().uuidString) async throws -> [String: Any] {
        try send(["id": id, "op": op, "data": data])
        return try await next { ($0["id"] as? String) == id }
    }

    /// Waits for (and removes) the first frame matching `predicate`.
    func next(timeout: Double = 10, _ predicate: @escaping ([String: Any]) -> Bool) async throws -> [String: Any] {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let frames = state.withLock { $0.frames }
            if let index = frames.firstIndex(where: { predicate(Self.parse($0)) }) {
                let text = frames[index]
                state.withLock { state in
                    if let position = state.frames.firstIndex(of: text) { state.frames.remove(at: position) }
                }
                return Self.parse(text)
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw TestFailure("no matching frame within \(timeout) s; have \(state.withLock { $0.frames })")
    }

    /// Frames received and not yet taken.
    var pending: [[String: Any]] { state.withLock { $0.frames }.map(Self.parse) }

    private static func parse(_ text: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? ["unparsed": text]
    }

    /// Waits until the socket closes; returns the close code.
    func closed(timeout: Double = 10) async throws -> UInt16 {
        try await waitFor("close", timeout: timeout) { $0.closeCode != nil }
        return state.withLock { $0.closeCode ?? 0 }
    }

    func close() {
        loop.execute { self.socket?.close() }
    }

    private func waitFor(_ what: String, timeout: Double = 10, _ condition: @escaping (State) -> Bool) async throws {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if state.withLock({ condition($0) }) { return }
            try await Task.sleep(for: .milliseconds(5))
        }
        throw TestFailure("timed out waiting for \(what)")
    }
}
