import Foundation
import TestSupport
@testable import ParleyNet
import Testing
@testable import ParleyServer

@Suite(.serialized) struct WebSocketSessionTests {
    @Test func authenticateThenOperate() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let (token, id) = try await server.register("wsuser")
        let socket = try await TestWebSocket(port: server.port)
        let early = try await socket.call("me.get")
        #expect((early["error"] as? [String: Any])?["code"] as? String == "auth_required")
        let auth = try await socket.call("auth", ["token": token])
        #expect(auth["ok"] as? Bool == true)
        #expect(((auth["data"] as? [String: Any])?["user"] as? [String: Any])?["id"] as? String == id)
        let me = try await socket.call("me.get")
        #expect((me["data"] as? [String: Any])?["username"] as? String == "wsuser")
        let unknown = try await socket.call("me.gte")
        #expect((unknown["error"] as? [String: Any])?["code"] as? String == "unknown_operation")
        let lookup = try await socket.call("user.get", ["username": "WSUSER"])
        #expect((lookup["data"] as? [String: Any])?["id"] as? String == id)
        let bad = try await socket.call("user.get", ["id": [1, 2]])
        #expect((bad["error"] as? [String: Any])?["code"] as? String == "invalid_field")
        socket.sendRaw("this is not json")
        let garbage = try await socket.next { $0["ok"] as? Bool == false && $0["id"] is NSNull }
        #expect((garbage["error"] as? [String: Any])?["code"] as? String == "bad_request")
        // Numeric ids come back as numbers.
        try socket.send(["id": 77, "op": "ping"])
        let pong = try await socket.next { ($0["id"] as? Int) == 77 }
        #expect(pong["ok"] as? Bool == true)
    }

    @Test func profileChangesReachTheOtherDevicesOnly() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let (token, _) = try await server.register("twodevices")
        let phone = try await TestWebSocket(port: server.port)
        let laptop = try await TestWebSocket(port: server.port)
        _ = try await phone.call("auth", ["token": token])
        _ = try await laptop.call("auth", ["token": token])
        let reply = try await phone.call("me.update", ["nickname": "New"])
        #expect((reply["data"] as? [String: Any])?["nickname"] as? String == "New")
        let event = try await laptop.next { $0["event"] as? String == "me.updated" }
        #expect((event["data"] as? [String: Any])?["nickname"] as? String == "New")
        try await Task.sleep(for: .milliseconds(200))
        #expect(!phone.pending.contains { $0["event"] as? String == "me.updated" })
        // An HTTP change reaches every device.
        _ = try await server.request("PATCH", "/v1/me", token: token, json: ["signature": "via http"])
        for device in [phone, laptop] {
            let pushed = try await device.next { $0["event"] as? String == "me.updated" }
            #expect((pushed["data"] as? [String: Any])?["signature"] as? String == "via http")
        }
    }

    @Test func badTokenClosesWith4001() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let socket = try await TestWebSocket(port: server.port)
        let reply = try await socket.call("auth", ["token": "forged"])
        #expect((reply["error"] as? [String: Any])?["code"] as? String == "unauthorized")
        #expect(try await socket.closed() == 4001)
    }

    /// A sign-in and a closed connection each leave heap behind that glibc keeps until it is
    /// trimmed; both are reported to the process's trimmer.
    @Test func signInsAndClosesReportTheirHeapToTheTrimmer() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let (token, _) = try await server.register("trimmed")
        let trimmer = HeapTrimmer.shared
        let beforeSignIn = trimmer.reportedBytes
        let socket = try await Chatter.connect(server: server, token: token)
        #expect(trimmer.reportedBytes - beforeSignIn >= ClientSession.signInHeapBytes)
        let beforeClose = trimmer.reportedBytes
        socket.close()
        _ = try await socket.closed()
        var waited = 0
        while trimmer.reportedBytes - beforeClose < ClientSession.connectionHeapBytes && waited < 50 {
            try await Task.sleep(for: .milliseconds(100))
            waited += 1
        }
        #expect(trimmer.reportedBytes - beforeClose >= ClientSession.connectionHeapBytes)
    }

    /// `--heap-arenas` is applied as the server starts (before its threads), and a server
    /// whose threads share one arena signs clients in and answers them.
    @Test func aServerWithOneHeapArenaServes() async throws {
        let server = try TestServer { $0.heapArenas = 1 }
        defer { server.stop() }
        #expect(HeapArenas.limit == 1)
        let (token, _) = try await server.register("onearena")
        let socket = try await Chatter.connect(server: server, token: token)
        let me = try await socket.call("me.get")
        #expect((me["data"] as? [String: Any])?["username"] as? String == "onearena")
        socket.close()
    }

    @Test func silentClientIsClosedWith4000() async throws {
        let server = try TestServer { $0.webSocketAuthTimeoutSeconds = 1 }
        defer { server.stop() }
        let socket = try await TestWebSocket(port: server.port)
        #expect(try await socket.closed(timeout: 5) == 4000)
    }

    /// The sign-in deadline is the socket's delegate deadline on the loop's wheel: a client that
    /// never signs in is closed at `--ws-auth-timeout`, one that signed in stays past it, and
    /// neither leaves a timer on a loop's heap (each had a `ScheduledTimer` there: pending, or
    /// cancelled at sign-in and kept until it reached the heap's top).
    @Test func onlyAClientThatNeverSignsInIsClosedAtTheAuthTimeout() async throws {
        let server = try TestServer { $0.webSocketAuthTimeoutSeconds = 2 }
        defer { server.stop() }
        let (token, _) = try await server.register("stays")
        let timersBefore = await Self.heldTimers(server)
        let signedIn = try await TestWebSocket(port: server.port)
        let auth = try await signedIn.call("auth", ["token": token])
        #expect(auth["ok"] as? Bool == true)
        let silent = try await TestWebSocket(port: server.port)
        #expect(await Self.heldTimers(server) == timersBefore)
        // Opened after the signed-in one: when it is closed, the other's deadline has passed too.
        #expect(try await silent.closed(timeout: 10) == 4000)
        let pong = try await signedIn.call("ping")
        #expect(pong["ok"] as? Bool == true)
    }

    /// Timers on the server's loops' heaps, read on each loop.
    static func heldTimers(_ server: TestServer) async -> Int {
        var total = 0
        for loop in server.server.group.loops {
            total += await withCheckedContinuation { continuation in
                loop.execute { continuation.resume(returning: loop.heldTimerCount) }
            }
        }
        return total
    }

    @Test func signingOutClosesThatSessionsSockets() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let (token, _) = try await server.register("leaver")
        let socket = try await TestWebSocket(port: server.port)
        _ = try await socket.call("auth", ["token": token])
        #expect(try await server.request("POST", "/v1/auth/logout", token: token).status == 204)
        #expect(try await socket.closed() == 4001)
    }

    /// A WebSocket keeps its session's id packed (`PackedSessionID`): revoking one device by
    /// the id the devices list shows closes that device's socket and no other.
    @Test func revokingADeviceClosesOnlyItsSockets() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let (token, _) = try await server.register("twophones")
        let login = try await server.request("POST", "/v1/auth/login", json: ["username": "twophones", "password": "password123"])
        let second = try #require(login.json["token"] as? String)
        let kept = try await TestWebSocket(port: server.port)
        let revoked = try await TestWebSocket(port: server.port)
        _ = try await kept.call("auth", ["token": token])
        _ = try await revoked.call("auth", ["token": second])
        let listed = try await server.request("GET", "/v1/auth/sessions", token: second)
        let devices = try #require(listed.json["sessions"] as? [[String: Any]])
        let secondID = try #require(devices.first { $0["current"] as? Bool == true }?["id"] as? String)
        #expect(devices.count == 2)
        // Both signed in, each `ClientSession` with its packed id stays in glibc's 112-byte
        // chunk (a 22-character `String` id was a 64-byte chunk of its own besides).
        let sessions = server.server.services.hub.connectedUsers.flatMap { server.server.services.hub.sessions(of: $0) }
        #expect(sessions.count == 2)
        #expect(mallocChunk(of: ClientSession.self) <= 112)
        #expect(try await server.request("DELETE", "/v1/auth/sessions/\(secondID)", token: token).status == 204)
        #expect(try await revoked.closed() == 4001)
        let pong = try await kept.call("ping")
        #expect(pong["ok"] as? Bool == true)
    }

    @Test func foreignBrowserOriginIsRefused() async throws {
        let server = try TestServer()
        defer { server.stop() }
        await #expect(throws: TestFailure.self) { _ = try await TestWebSocket(port: server.port, origin: "https://evil.example") }
        let same = try await TestWebSocket(port: server.port, origin: "http://127.0.0.1:\(server.port)")
        let pong = try await same.call("ping")
        #expect((pong["error"] as? [String: Any])?["code"] as? String == "auth_required")
    }
}
