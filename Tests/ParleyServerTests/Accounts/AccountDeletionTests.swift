import Foundation
import ParleySQL
import Testing
@testable import ParleyServer

/// Deleting an account (`DELETE /v1/me`), as the user, their friend and their group see it,
/// and what is left of it in the database file.
@Suite(.serialized) struct AccountDeletionTests {
    /// Every text and blob of every table of the SQLite file, after the server stopped.
    private func everythingStored(in path: String) throws -> String {
        let database = try SQLiteConnection(path: path, flags: [.readOnly])
        let tables = try database.query("SELECT name FROM sqlite_master WHERE type = 'table'") { try $0.string(0) }
        var all = ""
        for table in tables {
            _ = try database.query("SELECT * FROM \"\(table)\"") { row in
                for column in 0..<row.columnCount {
                    switch row.value(at: column) {
                    case .text(let text): all += text + "\n"
                    case .blob(let bytes): all += String(decoding: bytes, as: UTF8.self) + "\n"
                    default: break
                    }
                }
            }
        }
        return all
    }

    @Test func deletingWithThePasswordErasesThePersonAndKeepsTheirMessagesFromDeletedUser() async throws {
        let server = try TestServer { $0.smsResendIntervalSeconds = 1 }
        let directory = server.dataDirectory
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let mei = try await Chatter("meiqvx", on: server)
        let bob = try await Chatter("bobqvx", on: server)
        let ann = try await Chatter("annqvx", on: server)
        let direct = try await mei.befriend(bob)
        _ = try await mei.call("friend.request", ["username": "annqvx", "greeting": "GreetingQvx"])
        let group = try unwrap(try await mei.call("group.create", ["name": "Hikers"])["id"] as? String)
        try await bob.call("group.join", ["name": "Hikers"])
        try await ann.call("group.join", ["name": "Hikers"])
        _ = try await mei.send(direct, "see you at the lake")
        _ = try await mei.send(group, "bring boots")
        #expect(try await server.request("PATCH", "/v1/me", token: mei.token,
                                         json: ["nickname": "NickQvx", "signature": "SignatureQvx", "hobbies": ["HobbyQvx"], "age": 33]).status == 200)
        let code = try unwrap(try await { () async throws -> String? in
            _ = try await server.request("POST", "/v1/me/phone/request", token: mei.token, json: ["phone": "13800138077"])
            return try server.smsOutbox().last?["code"]
        }())
        #expect(try await server.request("POST", "/v1/me/phone/verify", token: mei.token,
                                         json: ["phone": "13800138077", "code": code]).status == 200)
        // Settings other features keep per user.
        _ = try await mei.call("privacy.set", ["readReceipts": false, "typing": false, "lastSeen": "nobody"])
        _ = try await mei.call("conversation.mute", ["conversationId": group, "mentionsOnly": true])
        _ = try await mei.call("user.findable", ["findable": false])
        let otherDevice = try await mei.anotherDevice()

        // The password is required, and checked as at login.
        let missing = try await server.request("DELETE", "/v1/me", token: mei.token, json: [String: String]())
        #expect(missing.status == 400 && missing.errorCode == "missing_field" && missing.errorField == "password")
        let wrong = try await server.request("DELETE", "/v1/me", token: mei.token, json: ["password": "not-the-password"])
        #expect(wrong.status == 401 && wrong.errorCode == "invalid_credentials")

        let deleted = try await server.request("DELETE", "/v1/me", token: mei.token, json: ["password": "password123"])
        #expect(deleted.status == 204)
        // Refused at once everywhere: HTTP, both WebSockets, a new WebSocket sign-in.
        #expect(try await mei.socket.closed() == 4001)
        #expect(try await otherDevice.closed() == 4001)
        #expect(try await server.request("GET", "/v1/me", token: mei.token).errorCode == "unauthorized")
        let again = try await TestWebSocket(port: server.port)
        _ = try? await again.call("auth", ["token": mei.token])
        #expect(try await again.closed() == 4001)

        // The friend hears the friendship end and keeps the history, from "Deleted user".
        let removed = try await bob.event("friend.removed")
        #expect(removed["userId"] as? String == mei.id)
        let history = try await bob.call("message.history", ["conversationId": direct])
        let messages = try unwrap(history["messages"] as? [[String: Any]])
        #expect(messages.contains { $0["text"] as? String == "see you at the lake" && $0["sender"] as? String == mei.id })
        let profile = try await server.request("GET", "/v1/users/\(mei.id)", token: bob.token)
        #expect(profile.json["deleted"] as? Bool == true)
        #expect(profile.json["username"] == nil && profile.json["nickname"] == nil && profile.json["signature"] == nil)

        // The group lost its owner to the next member, and keeps the message.
        let info = try await bob.call("group.get", ["conversationId": group])
        #expect(info["ownerId"] as? String == bob.id)
        #expect(info["memberCount"] as? Int == 2)
        let groupHistory = try unwrap(try await ann.call("message.history", ["conversationId": group])["messages"] as? [[String: Any]])
        #expect(groupHistory.contains { $0["text"] as? String == "bring boots" })

        // The username is reserved; the phone number is free.
        let taken = try await server.request("POST", "/v1/auth/register", json: ["username": "MeiQvx", "password": "password123"])
        #expect(taken.status == 409 && taken.errorCode == "username_taken")
        try await Task.sleep(for: .milliseconds(1_100))
        #expect(try await server.request("POST", "/v1/me/phone/request", token: ann.token, json: ["phone": "13800138077"]).status == 200)
        // Nobody is offered the deleted account's card.
        let cards = try unwrap(try await ann.call("discover.deck")["cards"] as? [[String: Any]])
        #expect(cards.contains { $0["id"] as? String == bob.id })
        #expect(!cards.contains { $0["id"] as? String == mei.id })

        // Stopped but not cleaned up: the file is read next.
        server.server.shutdown()
        let stored = try everythingStored(in: directory + "/parley.sqlite")
        for personal in ["meiqvx", "NickQvx", "SignatureQvx", "HobbyQvx", "GreetingQvx"] {
            #expect(!stored.lowercased().contains(personal.lowercased()), "\(personal) survives in a table")
        }
        // Nor anywhere in the file's bytes (free pages included).
        let bytes = try Data(contentsOf: URL(fileURLWithPath: directory + "/parley.sqlite"))
        // (The phone number is Ann's to bind now, so it may be in her pending code's rows.)
        for personal in ["meiqvx", "NickQvx", "SignatureQvx", "HobbyQvx", "GreetingQvx"] {
            #expect(bytes.range(of: Data(personal.utf8)) == nil, "\(personal) survives in the file")
        }
        #expect(stored.contains("see you at the lake"))
        let database = try SQLiteConnection(path: directory + "/parley.sqlite", flags: [.readOnly])
        #expect(try database.queryFirst("SELECT count(*) FROM users WHERE phone IS NOT NULL") { try $0.int64(0) } == 0)
        #expect(try database.queryFirst("SELECT count(*) FROM sessions WHERE user_id = ?", Int64(mei.id)) { try $0.int64(0) } == 0)
        // No table keyed by user keeps a row of hers (memberships of 1:1 conversations stay:
        // the friend's history names its two members).
        let perUser = try database.query("""
            SELECT m.name FROM sqlite_master m, pragma_table_info(m.name) c
            WHERE m.type = 'table' AND c.name = 'user_id' AND m.name <> 'members'
            """) { try $0.string(0) }
        #expect(perUser.contains("privacy_settings") && perUser.contains("conversation_mutes"))
        for table in perUser {
            let left = try database.queryFirst("SELECT count(*) FROM \"\(table)\" WHERE user_id = ?", Int64(mei.id)) { try $0.int64(0) }
            #expect(left == 0, "\(table) keeps rows of the deleted user")
        }
    }

    @Test func aPhoneOnlyAccountIsDeletedWithACode() async throws {
        let server = try TestServer { $0.smsResendIntervalSeconds = 1 }
        defer { server.stop() }
        _ = try await server.request("POST", "/v1/auth/sms/request", json: ["phone": "13800138078"])
        let first = try unwrap(try server.smsOutbox().last?["code"])
        let token = try unwrap(try await server.request("POST", "/v1/auth/sms/verify",
                                                        json: ["phone": "13800138078", "code": first]).json["token"] as? String)
        let missing = try await server.request("DELETE", "/v1/me", token: token, json: ["password": "anything-at-all"])
        #expect(missing.errorCode == "missing_field" && missing.errorField == "code")
        try await Task.sleep(for: .milliseconds(1_100))
        _ = try await server.request("POST", "/v1/auth/sms/request", json: ["phone": "13800138078"])
        let code = try unwrap(try server.smsOutbox().last?["code"])
        let wrong = code == "000000" ? "111111" : "000000"
        #expect(try await server.request("DELETE", "/v1/me", token: token, json: ["code": wrong]).errorCode == "invalid_code")
        #expect(try await server.request("DELETE", "/v1/me", token: token, json: ["code": code]).status == 204)
        #expect(try await server.request("GET", "/v1/me", token: token).errorCode == "unauthorized")
        // The number signs up afresh as a new account.
        try await Task.sleep(for: .milliseconds(1_100))
        _ = try await server.request("POST", "/v1/auth/sms/request", json: ["phone": "13800138078"])
        let next = try unwrap(try server.smsOutbox().last?["code"])
        let fresh = try await server.request("POST", "/v1/auth/sms/verify", json: ["phone": "13800138078", "code": next])
        #expect(fresh.json["created"] as? Bool == true)
    }

    @Test func withEraseMessagesOnDeleteTheirMessagesLoseTheirText() async throws {
        let server = try TestServer { $0.eraseMessagesOnDelete = "yes"; $0.usernameQuarantineDays = 0 }
        defer { server.stop() }
        let mei = try await Chatter("mei", on: server)
        let bob = try await Chatter("bob", on: server)
        let direct = try await mei.befriend(bob)
        _ = try await mei.send(direct, "forget me")
        _ = try await bob.send(direct, "bob's own words")
        #expect(try await server.request("DELETE", "/v1/me", token: mei.token, json: ["password": "password123"]).status == 204)
        let messages = try unwrap(try await bob.call("message.history", ["conversationId": direct])["messages"] as? [[String: Any]])
        let meis = messages.filter { $0["sender"] as? String == mei.id }
        #expect(meis.count == 1 && meis.allSatisfy { ($0["text"] as? String ?? "").isEmpty })
        #expect(messages.contains { $0["text"] as? String == "bob's own words" })
        // No quarantine: the name is free at once.
        #expect(try await server.request("POST", "/v1/auth/register", json: ["username": "mei", "password": "password123"]).status == 201)
    }
}
