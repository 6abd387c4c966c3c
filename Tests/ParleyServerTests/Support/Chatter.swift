import Foundation

/// A registered user with a signed-in WebSocket, for scenario tests.
final class Chatter: @unchecked Sendable {
    // Immutable after init but `socket`, which tests replace only from their own task.
    let name: String
    let id: String
    let token: String
    let server: TestServer
    var socket: TestWebSocket

    init(_ name: String, on server: TestServer) async throws {
        self.name = name
        self.server = server
        (token, id) = try await server.register(name)
        socket = try await Self.connect(server: server, token: token)
    }

    static func connect(server: TestServer, token: String) async throws -> TestWebSocket {
        let socket = try await TestWebSocket(port: server.port)
        let reply = try await socket.call("auth", ["token": token])
        guard reply["ok"] as? Bool == true else { throw TestFailure("auth failed: \(reply)") }
        return socket
    }

    /// A second connection of the same user.
    func anotherDevice() async throws -> TestWebSocket {
        try await Self.connect(server: server, token: token)
    }

    /// Reconnects after `disconnect`.
    func reconnect() async throws {
        socket = try await Self.connect(server: server, token: token)
    }

    func disconnect() async throws {
        socket.close()
        _ = try await socket.closed()
    }

    /// Calls an operation and returns its `data`, failing on an error response.
    @discardableResult
    func call(_ op: String, _ data: [String: Any] = [:]) async throws -> [String: Any] {
        let reply = try await socket.call(op, data)
        guard reply["ok"] as? Bool == true else { throw TestFailure("\(name) \(op) failed: \(reply)") }
        return reply["data"] as? [String: Any] ?? [:]
    }

    /// Calls an operation that must fail; returns the error code.
    func refused(_ op: String, _ data: [String: Any] = [:]) async throws -> String? {
        let reply = try await socket.call(op, data)
        guard reply["ok"] as? Bool == false else { throw TestFailure("\(name) \(op) unexpectedly succeeded: \(reply)") }
        return (reply["error"] as? [String: Any])?["code"] as? String
    }

    /// Waits for the next event named `event` matching `predicate`.
    func event(_ event: String, timeout: Double = 10, where predicate: @escaping ([String: Any]) -> Bool = { _ in true }) async throws -> [String: Any] {
        let frame = try await socket.next(timeout: timeout) { frame in
            frame["event"] as? String == event && predicate(frame["data"] as? [String: Any] ?? [:])
        }
        return frame["data"] as? [String: Any] ?? [:]
    }

    /// Events named `event` received and not yet taken.
    func pendingEvents(_ event: String) -> [[String: Any]] {
        socket.pending.filter { $0["event"] as? String == event }.map { $0["data"] as? [String: Any] ?? [:] }
    }

    /// Makes `self` and `other` friends; returns the conversation id.
    func befriend(_ other: Chatter) async throws -> String {
        let sent = try await call("friend.request", ["username": other.name, "greeting": "hi"])
        let requestID = try unwrap((sent["request"] as? [String: Any])?["id"] as? String)
        let friend = try await other.call("friend.accept", ["requestId": requestID])
        return try unwrap(friend["conversationId"] as? String)
    }

    func send(_ conversation: String, _ text: String, clientId: String = UUID().uuidString) async throws -> [String: Any] {
        try await call("message.send", ["conversationId": conversation, "clientId": clientId, "kind": "text", "text": text])
    }
}

func unwrap<T>(_ value: T?, _ what: String = "value") throws -> T {
    guard let value else { throw TestFailure("missing \(what)") }
    return value
}
