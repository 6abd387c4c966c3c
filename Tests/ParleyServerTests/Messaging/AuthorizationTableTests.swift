import Foundation
import Testing
@testable import ParleyServer

/// For each operation, who may and who may not: anonymous, stranger, friend, blocked,
/// non-member, member, owner. One row per (operation, caller), run against a real server.
@Suite(.serialized) struct AuthorizationTableTests {
    enum Expect: Equatable { case allow, deny(String) }

    @Test func everyCallerGetsTheRightAnswer() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let owner = try await Chatter("owner", on: server)
        let member = try await Chatter("member", on: server)
        let friend = try await Chatter("friend", on: server)
        let stranger = try await Chatter("stranger", on: server)
        let blocked = try await Chatter("blocked", on: server)
        let direct = try await owner.befriend(friend)
        let blockedDirect = try await owner.befriend(blocked)
        try await owner.call("block.add", ["userId": blocked.id])
        let group = try unwrap(try await owner.call("group.create", ["name": "Private"])["id"] as? String)
        _ = try await member.call("group.join", ["name": "Private"])
        let room = try unwrap((try await owner.call("room.create", ["name": "Den"])["room"] as? [String: Any])?["id"] as? String)

        var counter = 0
        func send(_ conversation: String) -> (String, [String: Any]) {
            counter += 1
            return ("message.send", ["conversationId": conversation, "clientId": "auth-\(counter)", "kind": "text", "text": "x"])
        }
        let table: [(String, Chatter, (String, [String: Any]), Expect)] = [
            ("friend posts 1:1", friend, send(direct), .allow),
            ("friend reads 1:1", friend, ("message.history", ["conversationId": direct]), .allow),
            ("stranger posts 1:1", stranger, send(direct), .deny("not_member")),
            ("stranger reads 1:1", stranger, ("message.history", ["conversationId": direct]), .deny("not_member")),
            ("stranger marks 1:1 read", stranger, ("conversation.read", ["conversationId": direct, "seq": 1]), .deny("not_member")),
            ("blocked posts 1:1", blocked, send(blockedDirect), .deny("blocked")),
            ("blocked requests", blocked, ("friend.request", ["userId": owner.id]), .deny("blocked")),
            ("blocked likes", blocked, ("discover.like", ["userId": owner.id]), .deny("blocked")),
            ("member posts group", member, send(group), .allow),
            ("member reads group", member, ("message.history", ["conversationId": group]), .allow),
            ("member lists members", member, ("group.members", ["conversationId": group]), .allow),
            ("member edits info", member, ("group.update", ["conversationId": group, "description": "ours"]), .allow),
            ("member removes", member, ("group.remove", ["conversationId": group, "userId": owner.id]), .deny("not_admin")),
            ("member transfers", member, ("group.transfer", ["conversationId": group, "userId": member.id]), .deny("not_owner")),
            ("non-member posts group", stranger, send(group), .deny("not_member")),
            ("non-member reads group", stranger, ("message.history", ["conversationId": group]), .deny("not_member")),
            ("non-member lists members", stranger, ("group.members", ["conversationId": group]), .deny("not_member")),
            ("non-member edits info", stranger, ("group.update", ["conversationId": group, "name": "Taken"]), .deny("not_member")),
            ("non-member leaves", stranger, ("group.leave", ["conversationId": group]), .deny("not_member")),
            ("non-member gets info", stranger, ("group.get", ["conversationId": group]), .deny("not_member")),
            ("owner posts group", owner, send(group), .allow),
            ("owner transfers to non-member", owner, ("group.transfer", ["conversationId": group, "userId": stranger.id]), .deny("not_found")),
            ("occupant posts room", owner, send(room), .allow),
            ("non-occupant posts room", stranger, send(room), .deny("not_member")),
            ("non-occupant reads room", stranger, ("message.history", ["conversationId": room]), .deny("not_member")),
            ("non-occupant lists occupants", stranger, ("room.occupants", ["conversationId": room]), .deny("not_member")),
            ("non-occupant leaves room", stranger, ("room.leave", ["conversationId": room]), .deny("not_member")),
            ("anyone accepts another's request", stranger, ("friend.accept", ["requestId": "nope"]), .deny("not_found")),
        ]
        for (label, caller, (op, data), expected) in table {
            let reply = try await caller.socket.call(op, data)
            let actual: Expect = reply["ok"] as? Bool == true
                ? .allow : .deny((reply["error"] as? [String: Any])?["code"] as? String ?? "?")
            #expect(actual == expected, "\(label): \(reply)")
        }

        // Anonymous: every operation needs auth first.
        let anonymous = try await TestWebSocket(port: server.port)
        for op in ["message.send", "message.history", "group.create", "friend.request", "conversation.list", "sync", "room.enter"] {
            let reply = try await anonymous.call(op, ["conversationId": group])
            #expect((reply["error"] as? [String: Any])?["code"] as? String == "auth_required", "anonymous \(op)")
        }
    }

    @Test func floodsAreRateLimited() async throws {
        let server = try TestServer {
            $0.webSocketRequestsPerSecond = 5
            $0.webSocketRequestBurst = 10
        }
        defer { server.stop() }
        let amy = try await Chatter("amy", on: server)
        for i in 0..<40 { try amy.socket.send(["id": "flood-\(i)", "op": "ping"]) }
        var limited = 0
        var answered = 0
        for i in 0..<40 {
            let reply = try await amy.socket.next { $0["id"] as? String == "flood-\(i)" }
            if (reply["error"] as? [String: Any])?["code"] as? String == "rate_limited" { limited += 1 } else { answered += 1 }
        }
        #expect(answered >= 9 && answered <= 15)
        #expect(limited == 40 - answered)
    }
}
