import Foundation
import Testing
@testable import ParleyServer

/// Changing and resetting passwords, binding phones, and devices (`docs/protocol.md`,
/// "Account security"), over the real HTTP API and WebSocket.
@Suite(.serialized) struct AccountSecurityTests {
    private func signIn(_ server: TestServer, _ username: String, _ password: String,
                        headers: [String: String] = [:], device: String? = nil) async throws -> TestServer.Reply {
        var body: [String: Any] = ["username": username, "password": password]
        if let device { body["deviceName"] = device }
        return try await server.request("POST", "/v1/auth/login", json: body, headers: headers)
    }

    /// Requests a code for `phone` at `path` and returns what the outbox got (nil: none sent).
    private func code(_ server: TestServer, _ path: String, _ phone: String, token: String? = nil) async throws -> String? {
        let before = try server.smsOutbox().count
        let reply = try await server.request("POST", path, token: token, json: ["phone": phone])
        #expect(reply.status == 200, "\(path): \(String(decoding: reply.body, as: UTF8.self))")
        let outbox = try server.smsOutbox()
        return outbox.count > before ? outbox.last?["code"] : nil
    }

    @Test func changingThePasswordSignsOtherDevicesOutAndClosesTheirSockets() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let (token, _) = try await server.register("changer", password: "first-password")
        let other = try #require(try await signIn(server, "changer", "first-password").json["token"] as? String)
        let socket = try await TestWebSocket(port: server.port)
        _ = try await socket.call("auth", ["token": other])

        let changed = try await server.request("POST", "/v1/me/password", token: token,
                                               json: ["current": "first-password", "new": "second-password"])
        #expect(changed.status == 200)
        #expect(changed.json["revoked"] as? Int == 1)
        #expect(try await socket.closed() == 4001)
        #expect(try await server.request("GET", "/v1/me", token: other).errorCode == "unauthorized")
        #expect(try await server.request("GET", "/v1/me", token: token).status == 200)
        #expect(try await signIn(server, "changer", "first-password").errorCode == "invalid_credentials")
        #expect(try await signIn(server, "changer", "second-password").status == 200)
    }

    @Test func keepingOtherSessionsLeavesThemSignedIn() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let (token, _) = try await server.register("keeper", password: "first-password")
        let other = try #require(try await signIn(server, "keeper", "first-password").json["token"] as? String)
        let changed = try await server.request("POST", "/v1/me/password", token: token,
                                               json: ["current": "first-password", "new": "second-password", "keepOtherSessions": true])
        #expect(changed.json["revoked"] as? Int == 0)
        #expect(try await server.request("GET", "/v1/me", token: other).status == 200)
    }

    @Test func wrongCurrentPasswordAndWeakNewOneAreRefused() async throws {
        let server = try TestServer { $0.loginFailuresPerAccount = 3 }
        defer { server.stop() }
        let (token, _) = try await server.register("guarded", password: "first-password")
        let weak = try await server.request("POST", "/v1/me/password", token: token, json: ["current": "first-password", "new": "short"])
        #expect(weak.status == 400 && weak.errorCode == "invalid_password" && weak.errorField == "new")
        for _ in 1...3 {
            let wrong = try await server.request("POST", "/v1/me/password", token: token,
                                                 json: ["current": "not-the-password", "new": "second-password"])
            #expect(wrong.status == 401 && wrong.errorCode == "invalid_credentials" && wrong.errorField == "current")
        }
        // The wrong guesses count toward the sign-in failure limit: even the right password
        // now waits, for changing it and for signing in.
        let limited = try await server.request("POST", "/v1/me/password", token: token,
                                               json: ["current": "first-password", "new": "second-password"])
        #expect(limited.status == 429 && limited.errorCode == "rate_limited")
        #expect(try await signIn(server, "guarded", "first-password").errorCode == "rate_limited")
        #expect(try await server.request("POST", "/v1/me/password", json: ["current": "a", "new": "b"]).errorCode == "unauthorized")
    }

    @Test func aPhoneOnlyAccountHasNoPasswordToChange() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let code = try #require(try await code(server, "/v1/auth/sms/request", "13800138001"))
        let token = try #require(try await server.request("POST", "/v1/auth/sms/verify",
                                                          json: ["phone": "13800138001", "code": code]).json["token"] as? String)
        let refused = try await server.request("POST", "/v1/me/password", token: token,
                                               json: ["current": "whatever-it-is", "new": "second-password"])
        #expect(refused.status == 409 && refused.errorCode == "password_not_set")
    }

    @Test func resetBySMSChangesThePasswordAndSignsEveryDeviceOut() async throws {
        let server = try TestServer { $0.smsResendIntervalSeconds = 2 }
        defer { server.stop() }
        let (token, _) = try await server.register("forgetful", password: "first-password")
        // The server stamps the code between these two instants: the early request below is
        // judged from the first, the wait for the interval counted from the second.
        let bindRequested = ContinuousClock.now
        let bindCode = try #require(try await code(server, "/v1/me/phone/request", "13800138002", token: token))
        let bindSent = ContinuousClock.now
        #expect(try await server.request("POST", "/v1/me/phone/verify", token: token,
                                         json: ["phone": "13800138002", "code": bindCode]).json["phone"] as? String == "+8613800138002")
        let socket = try await TestWebSocket(port: server.port)
        _ = try await socket.call("auth", ["token": token])
        // The resend interval of the binding code must pass first.
        let early = try await server.request("POST", "/v1/auth/password-reset/request", json: ["phone": "13800138002"])
        // Only asserted when the request surely came within the interval (a loaded machine
        // may take longer than that between the two requests).
        if ContinuousClock.now - bindRequested < .milliseconds(1_900) {
            #expect(early.errorCode == "rate_limited")
        }
        try await Task.sleep(until: bindSent + .milliseconds(2_100))
        let resetCode = try #require(try await code(server, "/v1/auth/password-reset/request", "13800138002"))
        let weak = try await server.request("POST", "/v1/auth/password-reset/verify",
                                            json: ["phone": "13800138002", "code": resetCode, "newPassword": "short"])
        #expect(weak.errorCode == "invalid_password" && weak.errorField == "newPassword")
        let reset = try await server.request("POST", "/v1/auth/password-reset/verify",
                                             json: ["phone": "13800138002", "code": resetCode, "newPassword": "second-password"])
        #expect(reset.status == 204)
        #expect(try await socket.closed() == 4001)
        #expect(try await server.request("GET", "/v1/me", token: token).errorCode == "unauthorized")
        #expect(try await signIn(server, "forgetful", "second-password").status == 200)
        // The code was used up.
        let reused = try await server.request("POST", "/v1/auth/password-reset/verify",
                                              json: ["phone": "13800138002", "code": resetCode, "newPassword": "third-password"])
        #expect(reused.status == 401 && reused.errorCode == "invalid_code")
        #expect(try await signIn(server, "forgetful", "third-password").errorCode == "invalid_credentials")
    }

    @Test func anUnknownPhoneGetsTheSameAnswersAsAKnownOne() async throws {
        // Long enough that the second requests below come within it on a loaded machine.
        let interval = 3
        let server = try TestServer { $0.smsResendIntervalSeconds = interval }
        defer { server.stop() }
        let (token, _) = try await server.register("known", password: "first-password")
        let bindCode = try #require(try await code(server, "/v1/me/phone/request", "13800138003", token: token))
        let bindSent = ContinuousClock.now
        _ = try await server.request("POST", "/v1/me/phone/verify", token: token, json: ["phone": "13800138003", "code": bindCode])
        try await Task.sleep(until: bindSent + .seconds(interval) + .milliseconds(100))

        let firstRequested = ContinuousClock.now
        let known = try await server.request("POST", "/v1/auth/password-reset/request", json: ["phone": "13800138003"])
        let unknown = try await server.request("POST", "/v1/auth/password-reset/request", json: ["phone": "13800138004"])
        #expect(known.status == 200 && unknown.status == 200)
        #expect(known.json as NSDictionary == unknown.json as NSDictionary)
        // Only the registered number was sent a code.
        #expect(try server.smsOutbox().filter { $0["phone"] == "+8613800138004" }.isEmpty)
        // A second request is refused alike, and a guess fails alike.
        let knownAgain = try await server.request("POST", "/v1/auth/password-reset/request", json: ["phone": "13800138003"])
        let unknownAgain = try await server.request("POST", "/v1/auth/password-reset/request", json: ["phone": "13800138004"])
        if ContinuousClock.now - firstRequested < .seconds(interval) - .milliseconds(100) {
            #expect(knownAgain.status == 429 && unknownAgain.status == 429)
        }
        #expect(knownAgain.status == unknownAgain.status && knownAgain.errorCode == unknownAgain.errorCode)
        for phone in ["13800138003", "13800138004"] {
            let guess = try await server.request("POST", "/v1/auth/password-reset/verify",
                                                 json: ["phone": phone, "code": "000000", "newPassword": "second-password"])
            let realCode = try server.smsOutbox().last?["code"]
            if phone == "13800138003" && realCode == "000000" { continue }
            #expect(guess.status == 401 && guess.errorCode == "invalid_code", "\(phone)")
        }
    }

    @Test func bindingChangingAndUnbindingAPhone() async throws {
        let server = try TestServer { $0.smsResendIntervalSeconds = 1 }
        defer { server.stop() }
        let (token, _) = try await server.register("binder", password: "first-password")
        let (otherToken, _) = try await server.register("holder", password: "first-password")
        let holderCode = try #require(try await code(server, "/v1/me/phone/request", "13800138005", token: otherToken))
        _ = try await server.request("POST", "/v1/me/phone/verify", token: otherToken, json: ["phone": "13800138005", "code": holderCode])

        // One account per phone.
        let taken = try await server.request("POST", "/v1/me/phone/request", token: token, json: ["phone": "13800138005"])
        #expect(taken.status == 409 && taken.errorCode == "phone_taken" && taken.errorField == "phone")

        let first = try #require(try await code(server, "/v1/me/phone/request", "13800138006", token: token))
        let wrong = first == "000000" ? "111111" : "000000"
        #expect(try await server.request("POST", "/v1/me/phone/verify", token: token,
                                         json: ["phone": "13800138006", "code": wrong]).errorCode == "invalid_code")
        let bound = try await server.request("POST", "/v1/me/phone/verify", token: token, json: ["phone": "13800138006", "code": first])
        #expect(bound.json["phone"] as? String == "+8613800138006")
        #expect(try await server.request("POST", "/v1/me/phone/verify", token: token,
                                         json: ["phone": "13800138006", "code": first]).errorCode == "invalid_code")

        // Changing to another number unbinds the old one, which another account may then take.
        let second = try #require(try await code(server, "/v1/me/phone/request", "13800138007", token: token))
        let changed = try await server.request("POST", "/v1/me/phone/verify", token: token, json: ["phone": "13800138007", "code": second])
        #expect(changed.json["phone"] as? String == "+8613800138007")
        try await Task.sleep(for: .milliseconds(1_100))
        #expect(try await server.request("POST", "/v1/me/phone/request", token: otherToken, json: ["phone": "13800138006"]).status == 200)

        // Unbinding needs the password.
        let wrongPassword = try await server.request("DELETE", "/v1/me/phone", token: token, json: ["password": "not-the-password"])
        #expect(wrongPassword.status == 401 && wrongPassword.errorCode == "invalid_credentials")
        let unbound = try await server.request("DELETE", "/v1/me/phone", token: token, json: ["password": "first-password"])
        #expect(unbound.status == 200 && unbound.json["phone"] == nil)
        #expect(try await server.request("GET", "/v1/me", token: token).json["phone"] == nil)
    }

    @Test func devicesAreNamedAndOthersCanBeSignedOutTogether() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let (token, _) = try await server.register("traveller", password: "first-password")
        let firefox = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0"
        let browser = try #require(try await signIn(server, "traveller", "first-password",
                                                    headers: ["User-Agent": firefox]).json["token"] as? String)
        let named = try #require(try await signIn(server, "traveller", "first-password", device: "Work laptop").json["token"] as? String)
        let socket = try await TestWebSocket(port: server.port)
        _ = try await socket.call("auth", ["token": named])

        let listed = try await server.request("GET", "/v1/auth/sessions", token: token)
        let sessions = try #require(listed.json["sessions"] as? [[String: Any]])
        #expect(sessions.count == 3)
        let names = Set(sessions.compactMap { $0["deviceName"] as? String })
        #expect(names.contains("Firefox on Linux"))
        #expect(names.contains("Work laptop"))
        #expect(sessions.allSatisfy { $0["lastAddress"] as? String == "127.0.0.1" })
        #expect(sessions.filter { $0["current"] as? Bool == true }.count == 1)

        let revoked = try await server.request("DELETE", "/v1/auth/sessions", token: token)
        #expect(revoked.status == 200 && revoked.json["revoked"] as? Int == 2)
        #expect(try await socket.closed() == 4001)
        #expect(try await server.request("GET", "/v1/me", token: browser).errorCode == "unauthorized")
        let left = try #require(try await server.request("GET", "/v1/auth/sessions", token: token).json["sessions"] as? [[String: Any]])
        #expect(left.count == 1 && left.first?["current"] as? Bool == true)
    }
}
