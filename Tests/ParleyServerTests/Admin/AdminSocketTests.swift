import Foundation
import ParleyNet
@testable import ParleyServer
import Testing

/// The running server's local admin socket: the same commands as `parley admin`, carried
/// out by the server (a suspension closes the user's connections at once), audit-logged as
/// `local admin (uid N)`, and clear refusals for what is not a command.
@Suite struct AdminSocketTests {
    /// Sends request lines on one connection, from a thread of their own (a blocking client
    /// on the cooperative pool could starve the server's handler tasks), and decodes the answers.
    private func exchange(_ lines: [String], on server: TestServer) async throws -> [[String: Any]] {
        let path = try unwrap(server.server.adminSocketPath)
        let answers: [String] = try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(with: Result {
                    let client = try LocalSocketClient(path: path, timeout: .seconds(10))
                    return try lines.map { try client.exchange($0) }
                })
            }.start()
        }
        return try answers.map { try unwrap(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
    }

    /// Sends one request and decodes the answer.
    private func send(_ request: [String: Any], to server: TestServer) async throws -> [String: Any] {
        let line = String(decoding: try JSONSerialization.data(withJSONObject: request), as: UTF8.self)
        return try await exchange([line], on: server)[0]
    }

    private func output(_ answer: [String: Any]) throws -> [String: Any] {
        #expect(answer["ok"] as? Bool == true, "\(answer)")
        let text = try unwrap(answer["output"] as? String)
        return try unwrap(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func theSocketLivesInTheDataDirectoryOwnerOnlyAndGoesAtShutdown() async throws {
        let server = try TestServer()
        let path = try unwrap(server.server.adminSocketPath)
        #expect(path == server.dataDirectory + "/admin.sock")
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o600)
        server.stop()
        #expect(!FileManager.default.fileExists(atPath: path))

        let off = try TestServer { $0.adminSocket = "off" }
        defer { off.stop() }
        #expect(off.server.adminSocketPath == nil)
        #expect(!FileManager.default.fileExists(atPath: off.dataDirectory + "/admin.sock"))
    }

    @Test func suspendThroughTheSocketClosesEveryConnectionAndIsAuditedAsTheLocalAdmin() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let bob = try await Chatter("bobsock", on: server)
        let otherDevice = try await bob.anotherDevice()
        let stats = try output(try await send(["command": ["stats"]], to: server))
        #expect(stats["users"] as? Int == 1 && (stats["connections"] as? Int ?? 0) >= 2)

        let started = Date()
        let answer = try await send(["id": "s1", "command": ["suspend", bob.id, "--reason", "raiding"]], to: server)
        #expect(answer["id"] as? String == "s1")
        let user = try output(answer)
        #expect((user["suspension"] as? [String: Any])?["reason"] as? String == "raiding")
        // At once, not at an idle or ping timeout (30 s): the bound leaves room for a busy machine.
        #expect(try await bob.socket.closed(timeout: 10) == 4001)
        #expect(try await otherDevice.closed(timeout: 10) == 4001)
        #expect(Date().timeIntervalSince(started) < 10)
        let refused = try await server.request("GET", "/v1/me", token: bob.token)
        #expect(refused.status == 403 && refused.errorCode == "suspended")

        let revoked = try output(try await send(["command": ["revoke-sessions", bob.id]], to: server))
        #expect(revoked["revoked"] as? Int == 1)
        let audit = try output(try await send(["command": ["audit"]], to: server))
        let entries = try unwrap(audit["entries"] as? [[String: Any]])
        #expect(entries.map { $0["action"] as? String } == ["user.revoke_sessions", "user.suspend"])
        #expect(entries.allSatisfy { $0["actor"] as? String == "local admin (uid \(getuid()))" && $0["adminId"] == nil })
    }

    @Test func whatIsNotACommandIsRefusedClearly() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let garbled = try await exchange(["not json"], on: server)[0]
        #expect(garbled["ok"] as? Bool == false && (garbled["error"] as? [String: Any])?["code"] as? String == "bad_request")
        let unknown = try await send(["command": ["launch", "rockets"]], to: server)
        #expect((unknown["error"] as? [String: Any])?["code"] as? String == "bad_request")
        let missing = try await send(["command": ["suspend", "999999", "--reason", "x"]], to: server)
        #expect((missing["error"] as? [String: Any])?["code"] as? String == "not_found")
        // One connection, a refusal and then a command: both answered, in order.
        let both = try await exchange(["not json", #"{"command":["stats"]}"#], on: server)
        #expect(both[0]["ok"] as? Bool == false && both[1]["ok"] as? Bool == true)
    }
}
