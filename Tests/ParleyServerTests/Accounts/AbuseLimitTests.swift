import Foundation
import Testing
@testable import ParleyServer

@Suite(.serialized) struct AbuseLimitTests {
    @Test func failedLoginsLockTheAccountForAWhile() async throws {
        let server = try TestServer { $0.loginFailuresPerAccount = 3 }
        defer { server.stop() }
        _ = try await server.register("target")
        for _ in 0..<3 {
            let reply = try await server.request("POST", "/v1/auth/login", json: ["username": "target", "password": "guess-guess"])
            #expect(reply.errorCode == "invalid_credentials")
        }
        // Past the limit even the right password is refused, with the wait.
        let locked = try await server.request("POST", "/v1/auth/login", json: ["username": "TARGET", "password": "password123"])
        #expect(locked.status == 429)
        #expect(locked.errorCode == "rate_limited")
        let wait = try #require(Int(locked.headers["retry-after"] ?? ""))
        #expect(wait > 0 && wait <= 900)
        // Another account is not affected.
        _ = try await server.register("bystander")
        #expect(try await server.request("POST", "/v1/auth/login", json: ["username": "bystander", "password": "password123"]).status == 200)
    }

    @Test func failedLoginsFromOneAddressAreLimited() async throws {
        let server = try TestServer { $0.loginFailuresPerAddress = 4 }
        defer { server.stop() }
        for i in 0..<4 {
            let reply = try await server.request("POST", "/v1/auth/login", json: ["username": "nobody\(i)", "password": "guess-guess"])
            #expect(reply.errorCode == "invalid_credentials")
        }
        let limited = try await server.request("POST", "/v1/auth/login", json: ["username": "someone", "password": "guess-guess"])
        #expect(limited.status == 429)
        #expect(limited.headers["retry-after"] != nil)
    }

    @Test func registrationsPerAddressAreLimited() async throws {
        let server = try TestServer { $0.registrationsPerAddress = 2 }
        defer { server.stop() }
        _ = try await server.register("first")
        _ = try await server.register("second")
        let third = try await server.request("POST", "/v1/auth/register", json: ["username": "third", "password": "password123"])
        #expect(third.status == 429 && third.errorCode == "rate_limited")
    }
}
