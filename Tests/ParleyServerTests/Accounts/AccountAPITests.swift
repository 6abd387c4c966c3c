import Foundation
import Testing
@testable import ParleyServer

@Suite(.serialized) struct AccountAPITests {
    @Test func registerLoginAndProfile() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let registered = try await server.request("POST", "/v1/auth/register", json: ["username": "Mei", "password": "correct horse"])
        #expect(registered.status == 201)
        let token = try #require(registered.json["token"] as? String)
        #expect(token.count == 43)
        #expect((registered.json["user"] as? [String: Any])?["username"] as? String == "Mei")
        #expect(registered.json["created"] as? Bool == true)

        let login = try await server.request("POST", "/v1/auth/login", json: ["username": "mei", "password": "correct horse"])
        #expect(login.status == 200)
        #expect(login.json["token"] as? String != token)

        let me = try await server.request("GET", "/v1/me", token: token)
        #expect(me.status == 200)
        #expect(me.json["username"] as? String == "Mei")

        let patched = try await server.request("PATCH", "/v1/me", token: token,
                                               json: ["nickname": "梅 🌸", "signature": "hi", "age": 27, "hobbies": ["tea", "go, chess"]])
        #expect(patched.status == 200)
        #expect(patched.json["nickname"] as? String == "梅 🌸")
        #expect(patched.json["hobbies"] as? [String] == ["tea", "go, chess"])
        let cleared = try await server.request("PATCH", "/v1/me", token: token, json: ["signature": NSNull()])
        #expect(cleared.json["signature"] == nil)
        #expect(cleared.json["nickname"] as? String == "梅 🌸")

        let id = try #require(me.json["id"] as? String)
        let byID = try await server.request("GET", "/v1/users/\(id)", token: token)
        #expect(byID.json["nickname"] as? String == "梅 🌸")
        #expect(byID.json["phone"] == nil)
        let byName = try await server.request("GET", "/v1/users/by-name/MEI", token: token)
        #expect(byName.json["id"] as? String == id)
        #expect(try await server.request("GET", "/v1/users/by-name/nobody", token: token).errorCode == "not_found")
        #expect(try await server.request("GET", "/v1/users/999999", token: token).status == 404)
    }

    @Test func registrationErrorsNameTheField() async throws {
        let server = try TestServer()
        defer { server.stop() }
        _ = try await server.register("taken")
        let cases: [([String: Any], Int, String, String?)] = [
            (["username": "TAKEN", "password": "password123"], 409, "username_taken", "username"),
            (["username": "ab", "password": "password123"], 400, "invalid_username", "username"),
            (["username": "has space", "password": "password123"], 400, "invalid_username", "username"),
            (["username": "fine_name", "password": "short"], 400, "invalid_password", "password"),
            (["username": "fine_name"], 400, "missing_field", "password"),
            (["username": 42, "password": "password123"], 400, "invalid_field", "username"),
        ]
        for (body, status, code, field) in cases {
            let reply = try await server.request("POST", "/v1/auth/register", json: body)
            #expect(reply.status == status, "\(body)")
            #expect(reply.errorCode == code, "\(body)")
            #expect(reply.errorField == field, "\(body)")
        }
        let malformed = try await server.request("POST", "/v1/auth/register", raw: Data("{not json".utf8),
                                                 headers: ["Content-Type": "application/json"])
        #expect(malformed.status == 400)
        #expect(malformed.errorCode == "bad_request")
        let tooLong = try await server.request("POST", "/v1/auth/register",
                                               json: ["username": String(repeating: "x", count: 33), "password": "password123"])
        #expect(tooLong.errorCode == "invalid_username")
    }

    @Test func wrongPasswordAndUnknownUserLookAlike() async throws {
        let server = try TestServer()
        defer { server.stop() }
        _ = try await server.register("alice")
        let wrong = try await server.request("POST", "/v1/auth/login", json: ["username": "alice", "password": "wrong-password"])
        let unknown = try await server.request("POST", "/v1/auth/login", json: ["username": "nobody", "password": "wrong-password"])
        #expect(wrong.status == 401 && unknown.status == 401)
        #expect(wrong.errorCode == "invalid_credentials" && unknown.errorCode == "invalid_credentials")
        #expect((wrong.json["error"] as? [String: Any])?["message"] as? String
                == (unknown.json["error"] as? [String: Any])?["message"] as? String)
    }

    @Test func tokensAreCheckedAndRevocable() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let (first, _) = try await server.register("bob")
        #expect(try await server.request("GET", "/v1/me").errorCode == "unauthorized")
        #expect(try await server.request("GET", "/v1/me", token: "not-a-token").status == 401)
        let second = try #require(try await server.request("POST", "/v1/auth/login", json: ["username": "bob", "password": "password123"],
                                                           headers: ["User-Agent": "phone/1.0"]).json["token"] as? String)
        let sessions = try await server.request("GET", "/v1/auth/sessions", token: first)
        let list = try #require(sessions.json["sessions"] as? [[String: Any]])
        #expect(list.count == 2)
        #expect(list.filter { $0["current"] as? Bool == true }.count == 1)
        let other = try #require(list.first { $0["current"] as? Bool == false })
        #expect(other["userAgent"] as? String == "phone/1.0")
        let otherID = try #require(other["id"] as? String)
        #expect(try await server.request("DELETE", "/v1/auth/sessions/\(otherID)", token: first).status == 204)
        #expect(try await server.request("GET", "/v1/me", token: second).status == 401)
        #expect(try await server.request("DELETE", "/v1/auth/sessions/\(otherID)", token: first).status == 404)
        #expect(try await server.request("POST", "/v1/auth/logout", token: first).status == 204)
        #expect(try await server.request("GET", "/v1/me", token: first).status == 401)
    }

    @Test func profileChangesAreValidated() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let (token, _) = try await server.register("carol")
        let cases: [([String: Any], String, String)] = [
            (["nickname": String(repeating: "n", count: 33)], "invalid_field", "nickname"),
            (["avatar": "javascript:alert(1)"], "invalid_field", "avatar"),
            (["age": 0], "invalid_field", "age"),
            (["age": "old"], "invalid_field", "age"),
            (["hobbies": Array(repeating: "x", count: 11)], "invalid_field", "hobbies"),
            (["username": "carol2"], "username_already_set", "username"),
        ]
        for (body, code, field) in cases {
            let reply = try await server.request("PATCH", "/v1/me", token: token, json: body)
            #expect(reply.errorCode == code, "\(body)")
            #expect(reply.errorField == field, "\(body)")
        }
        #expect(try await server.request("GET", "/v1/me", token: token).json["nickname"] == nil)
    }

    @Test func hundredParallelRegistrationsOfOneNameMakeOneAccount() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for i in 0..<100 {
                group.addTask {
                    let name = i % 2 == 0 ? "racer" : "RACER"
                    return try await server.request("POST", "/v1/auth/register", json: ["username": name, "password": "password123"]).status
                }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses.filter { $0 == 201 }.count == 1)
        #expect(statuses.filter { $0 == 409 }.count == 99)
    }

    @Test func unknownRoutesAndMethods() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let missing = try await server.request("GET", "/v1/nothing")
        #expect(missing.status == 404 && missing.errorCode == "not_found")
        let method = try await server.request("GET", "/v1/auth/register")
        #expect(method.status == 405 && method.errorCode == "method_not_allowed")
        #expect(method.headers["allow"] == "POST")
    }
}
