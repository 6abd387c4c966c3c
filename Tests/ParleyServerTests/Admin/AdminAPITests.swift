import Foundation
@testable import ParleyServer
import Testing

/// The admin API on a real server: who may call it, suspension, reports flowing to
/// administrators, group disband, and an audit row for every action.
@Suite struct AdminAPITests {
    /// A server with `name` granted the admin role as `parley admin grant` does.
    private func grant(_ name: String, on server: TestServer) async throws {
        _ = try await server.server.services.admin.setAdmin(username: name, true)
    }

    @Test func theAdminAPIRefusesEveryoneButAdministrators() async throws {
        let server = try TestServer()
        let amy = try await Chatter("amyadm", on: server)
        let bob = try await Chatter("bobadm", on: server)
        try await grant("amyadm", on: server)
        for path in ["/v1/admin/stats", "/v1/admin/audit", "/v1/admin/reports", "/v1/admin/users?q=amy", "/v1/admin/users/\(amy.id)"] {
            let refused = try await server.request("GET", path, token: bob.token)
            #expect(refused.status == 403 && refused.errorCode == "not_admin", "\(path)")
            #expect(try await server.request("GET", path).status == 401, "\(path)")
        }
        let suspend = try await server.request("POST", "/v1/admin/users/\(amy.id)/suspend", token: bob.token,
                                               json: ["reason": "no"])
        #expect(suspend.status == 403 && suspend.errorCode == "not_admin")
        #expect(try await server.request("GET", "/v1/admin/me", token: bob.token).json["admin"] as? Bool == false)
        #expect(try await server.request("GET", "/v1/admin/me", token: amy.token).json["admin"] as? Bool == true)
        let stats = try await server.request("GET", "/v1/admin/stats", token: amy.token)
        #expect(stats.status == 200 && stats.json["users"] as? Int == 2 && (stats.json["connections"] as? Int ?? 0) >= 2)
        #expect((stats.json["storeBytes"] as? Int ?? 0) > 0)
        // Nothing the refused calls tried was written; granting the role was.
        let audit = try await server.request("GET", "/v1/admin/audit", token: amy.token)
        let entries = try unwrap(audit.json["entries"] as? [[String: Any]])
        #expect(entries.map { $0["action"] as? String } == ["admin.grant"])
    }

    @Test func suspensionClosesEveryConnectionAndRefusesUntilLifted() async throws {
        let server = try TestServer()
        let amy = try await Chatter("amysus", on: server)
        let bob = try await Chatter("bobsus", on: server)
        try await grant("amysus", on: server)
        let otherDevice = try await bob.anotherDevice()
        let until = Int64(Date().timeIntervalSince1970 * 1000) + 3_600_000
        let suspended = try await server.request("POST", "/v1/admin/users/\(bob.id)/suspend", token: amy.token,
                                                 json: ["reason": "spam links", "until": until])
        #expect(suspended.status == 200)
        #expect((suspended.json["suspension"] as? [String: Any])?["reason"] as? String == "spam links")
        // Every connection closes at once.
        #expect(try await bob.socket.closed() == 4001)
        #expect(try await otherDevice.closed() == 4001)
        // HTTP answers 403 suspended with the end and the reason.
        let refused = try await server.request("GET", "/v1/me", token: bob.token)
        let error = try unwrap(refused.json["error"] as? [String: Any])
        #expect(refused.status == 403 && error["code"] as? String == "suspended")
        #expect((error["until"] as? NSNumber)?.int64Value == until && error["reason"] as? String == "spam links")
        // Signing in again is refused too, on HTTP and on a new WebSocket.
        let login = try await server.request("POST", "/v1/auth/login", json: ["username": "bobsus", "password": "password123"])
        #expect(login.status == 403 && login.errorCode == "suspended")
        let again = try await TestWebSocket(port: server.port)
        let auth = try await again.call("auth", ["token": bob.token])
        #expect((auth["error"] as? [String: Any])?["code"] as? String == "suspended")

        let lifted = try await server.request("POST", "/v1/admin/users/\(bob.id)/unsuspend", token: amy.token, json: ["reason": "appeal"])
        #expect(lifted.status == 200 && lifted.json["suspension"] == nil)
        #expect(try await server.request("GET", "/v1/me", token: bob.token).status == 200)
        #expect(try await server.request("POST", "/v1/auth/login", json: ["username": "bobsus", "password": "password123"]).status == 200)
        // An administrator may not suspend themself, and a reason is required.
        let selfSuspend = try await server.request("POST", "/v1/admin/users/\(amy.id)/suspend", token: amy.token, json: ["reason": "x"])
        #expect(selfSuspend.status == 400)
        let noReason = try await server.request("POST", "/v1/admin/users/\(bob.id)/suspend", token: amy.token, json: ["reason": " "])
        #expect(noReason.errorCode == "missing_field")
    }

    @Test func reportsKeepTheMessageAndEveryAdminActionIsAudited() async throws {
        let server = try TestServer()
        let amy = try await Chatter("amyrep", on: server)
        let bob = try await Chatter("bobrep", on: server)
        let cat = try await Chatter("catrep", on: server)
        try await grant("amyrep", on: server)
        let group = try unwrap(try await cat.call("group.create", ["name": "Reporters"])["id"] as? String)
        try await bob.call("group.join", ["name": "Reporters"])
        let spam = try unwrap(try await bob.send(group, "cheap watches here")["id"] as? String)
        let rude = try unwrap(try await bob.send(group, "you are all idiots")["id"] as? String)

        // Reports: of a message (kept as it was), of a user; bad shapes refused.
        let report = try await cat.call("report.create", ["conversationId": group, "messageId": spam, "reason": "spam", "note": "ads again"])
        let reportID = try unwrap(report["id"] as? String)
        _ = try await cat.call("report.create", ["userId": bob.id, "reason": "abuse"])
        #expect(try await cat.refused("report.create", ["reason": "spam"]) == "invalid_field")
        #expect(try await cat.refused("report.create", ["userId": bob.id, "reason": "boring"]) == "invalid_field")
        #expect(try await cat.refused("report.create", ["userId": bob.id, "reason": "other",
                                                        "note": String(repeating: "x", count: 1_001)]) == "invalid_field")
        #expect(try await amy.refused("report.create", ["conversationId": group, "messageId": spam, "reason": "spam"]) == "not_member")
        // The sender recalls it; the moderators still see what it said.
        _ = try await bob.call("message.recall", ["conversationId": group, "messageId": spam, "clientId": UUID().uuidString])
        let open = try await server.request("GET", "/v1/admin/reports?status=open", token: amy.token)
        let reports = try unwrap(open.json["reports"] as? [[String: Any]])
        #expect(reports.count == 2)
        let first = try unwrap(reports.first { $0["id"] as? String == reportID })
        #expect((first["snapshot"] as? [String: Any])?["text"] as? String == "cheap watches here")
        #expect(first["userId"] as? String == bob.id && first["note"] as? String == "ads again")
        let byBob = try await server.request("GET", "/v1/admin/reports?userId=\(bob.id)&reason=abuse", token: amy.token)
        #expect((byBob.json["reports"] as? [[String: Any]])?.count == 1)

        // Context, removal, assignment, resolution.
        let context = try await server.request("GET", "/v1/admin/conversations/\(group)/messages/\(rude)", token: amy.token)
        #expect((context.json["message"] as? [String: Any])?["text"] as? String == "you are all idiots")
        #expect((context.json["before"] as? [[String: Any]])?.isEmpty == false)
        let removed = try await server.request("POST", "/v1/admin/conversations/\(group)/messages/\(rude)/remove", token: amy.token,
                                               json: ["reason": "insults"])
        #expect(removed.status == 200)
        let updated = try await cat.event("message.updated")
        #expect((updated["message"] as? [String: Any])?["recalled"] != nil)
        #expect((updated["message"] as? [String: Any])?["text"] == nil)
        #expect(try await server.request("POST", "/v1/admin/reports/\(reportID)/assign", token: amy.token,
                                         json: ["assigneeId": amy.id]).json["assigneeId"] as? String == amy.id)
        let resolved = try await server.request("POST", "/v1/admin/reports/\(reportID)/resolve", token: amy.token,
                                                json: ["outcome": "content_removed", "reason": "recalled by sender"])
        #expect(resolved.json["status"] as? String == "resolved" && resolved.json["resolvedBy"] as? String == amy.id)
        #expect(try await server.request("POST", "/v1/admin/reports/\(reportID)/resolve", token: amy.token,
                                         json: ["outcome": "dismissed"]).status == 400)

        // Groups: view, change owner, disband.
        let info = try await server.request("GET", "/v1/admin/conversations/\(group)", token: amy.token)
        #expect(info.json["ownerId"] as? String == cat.id && info.json["memberCount"] as? Int == 2)
        let owner = try await server.request("POST", "/v1/admin/groups/\(group)/owner", token: amy.token,
                                             json: ["userId": bob.id, "reason": "cat asked"])
        #expect(owner.json["ownerId"] as? String == bob.id)
        #expect(try await server.request("POST", "/v1/admin/groups/\(group)/disband", token: amy.token,
                                         json: ["reason": "abusive group"]).status == 204)
        #expect(try await cat.event("group.disbanded")["conversationId"] as? String == group)
        let revoked = try await server.request("POST", "/v1/admin/users/\(cat.id)/revoke-sessions", token: amy.token)
        #expect(revoked.json["revoked"] as? Int == 1)
        #expect(try await server.request("POST", "/v1/admin/users/\(bob.id)/delete", token: amy.token,
                                         json: ["reason": "spammer"]).status == 204)
        #expect(try await server.request("GET", "/v1/me", token: bob.token).status == 401)

        // One audit row per action, newest first, none for reading.
        let audit = try await server.request("GET", "/v1/admin/audit", token: amy.token)
        let actions = try unwrap(audit.json["entries"] as? [[String: Any]]).map { $0["action"] as? String ?? "" }
        #expect(actions == ["user.delete", "user.revoke_sessions", "group.disband", "group.change_owner", "report.resolve",
                            "report.assign", "message.remove", "admin.grant"])
        let entries = try unwrap(audit.json["entries"] as? [[String: Any]])
        #expect(entries[0]["adminId"] as? String == amy.id && entries[0]["reason"] as? String == "spammer")
        #expect(entries[0]["target"] as? String == "user:\(bob.id)")
        // There is no way to change it.
        #expect(try await server.request("DELETE", "/v1/admin/audit", token: amy.token).status >= 400)
    }

    @Test func anOwnerDisbandsAGroupForEveryone() async throws {
        let server = try TestServer()
        let amy = try await Chatter("amydis", on: server)
        let bob = try await Chatter("bobdis", on: server)
        let group = try unwrap(try await amy.call("group.create", ["name": "Shortlived"])["id"] as? String)
        try await bob.call("group.join", ["name": "Shortlived"])
        _ = try await amy.send(group, "last words")
        #expect(try await bob.refused("group.disband", ["conversationId": group]) == "not_owner")
        _ = try await amy.call("group.disband", ["conversationId": group])
        #expect(try await bob.event("group.disbanded")["conversationId"] as? String == group)
        let notice = try await bob.event("message.new") { ($0["system"] as? [String: Any])?["type"] as? String == "group_disbanded" }
        #expect((notice["system"] as? [String: Any])?["actor"] as? String == amy.id)
        // Gone from lists, history unreadable, no way back in; the name is free again.
        let list = try unwrap(try await bob.call("conversation.list")["conversations"] as? [[String: Any]])
        #expect(!list.contains { ($0["conversation"] as? [String: Any])?["id"] as? String == group || $0["id"] as? String == group })
        #expect(try await bob.refused("message.history", ["conversationId": group]) == "not_member")
        #expect(try await bob.refused("group.join", ["name": "Shortlived"]) == "not_found")
        _ = try await bob.call("group.create", ["name": "Shortlived"])
    }
}
