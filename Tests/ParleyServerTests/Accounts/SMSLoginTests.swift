import Foundation
import Testing
@testable import ParleyServer

@Suite(.serialized) struct SMSLoginTests {
    @Test func phoneSignInCreatesThenReusesTheAccount() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let sent = try await server.request("POST", "/v1/auth/sms/request", json: ["phone": "138 0013 8000"])
        #expect(sent.status == 200)
        #expect(sent.json["retryAfterSeconds"] as? Int == 60)
        #expect(sent.json["codeLength"] as? Int == 6)
        let outbox = try server.smsOutbox()
        #expect(outbox.count == 1)
        #expect(outbox.first?["phone"] == "+8613800138000")
        let code = try #require(outbox.first?["code"])
        #expect(code.count == 6 && code.allSatisfy(\.isNumber))

        let verified = try await server.request("POST", "/v1/auth/sms/verify", json: ["phone": "13800138000", "code": code])
        #expect(verified.status == 200)
        #expect(verified.json["created"] as? Bool == true)
        let user = try #require(verified.json["user"] as? [String: Any])
        #expect(user["username"] == nil)
        #expect(user["phone"] as? String == "+8613800138000")
        let token = try #require(verified.json["token"] as? String)
        // The code is single-use.
        let again = try await server.request("POST", "/v1/auth/sms/verify", json: ["phone": "13800138000", "code": code])
        #expect(again.errorCode == "invalid_code")
        // The username is chosen once, afterwards.
        let named = try await server.request("PATCH", "/v1/me", token: token, json: ["username": "phone_user"])
        #expect(named.json["username"] as? String == "phone_user")
        #expect(try await server.request("PATCH", "/v1/me", token: token, json: ["username": "other"]).errorCode == "username_already_set")
        // Codes never reach the log.
        let log = try String(contentsOfFile: server.dataDirectory + "/sms-outbox.jsonl", encoding: .utf8)
        #expect(log.contains(code))
    }

    @Test func resendTooEarlyIsRefusedWithTheWait() async throws {
        let server = try TestServer()
        defer { server.stop() }
        #expect(try await server.request("POST", "/v1/auth/sms/request", json: ["phone": "+4915112345678"]).status == 200)
        let early = try await server.request("POST", "/v1/auth/sms/request", json: ["phone": "+4915112345678"])
        #expect(early.status == 429)
        #expect(early.errorCode == "rate_limited")
        let wait = try #require((early.json["error"] as? [String: Any])?["retryAfterSeconds"] as? Int)
        #expect((1...60).contains(wait))
        #expect(early.headers["retry-after"] == String(wait))
    }

    @Test func wrongCodesUseUpTheTries() async throws {
        let server = try TestServer()
        defer { server.stop() }
        _ = try await server.request("POST", "/v1/auth/sms/request", json: ["phone": "13900139000"])
        let code = try #require(try server.smsOutbox().first?["code"])
        let wrong = code == "000000" ? "111111" : "000000"
        for attempt in 1...5 {
            let reply = try await server.request("POST", "/v1/auth/sms/verify", json: ["phone": "13900139000", "code": wrong])
            #expect(reply.errorCode == (attempt < 5 ? "invalid_code" : "too_many_attempts"), "attempt \(attempt)")
        }
        // Even the right code is refused now.
        let right = try await server.request("POST", "/v1/auth/sms/verify", json: ["phone": "13900139000", "code": code])
        #expect(right.errorCode == "too_many_attempts")
    }

    @Test func badNumbersAndCodesAreNamed() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let badPhone = try await server.request("POST", "/v1/auth/sms/request", json: ["phone": "12345"])
        #expect(badPhone.status == 400 && badPhone.errorCode == "invalid_phone" && badPhone.errorField == "phone")
        let badCode = try await server.request("POST", "/v1/auth/sms/verify", json: ["phone": "13800138000", "code": "12ab56"])
        #expect(badCode.errorCode == "invalid_code" && badCode.errorField == "code")
        let none = try await server.request("POST", "/v1/auth/sms/verify", json: ["phone": "13700137000", "code": "123456"])
        #expect(none.errorCode == "invalid_code")
    }
}
