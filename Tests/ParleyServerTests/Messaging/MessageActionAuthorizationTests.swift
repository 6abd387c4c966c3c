import Foundation
import Testing
@testable import ParleyServer

/// For each message action, who may and who may not, over real WebSockets: the sender, a
/// friend, a stranger, a blocked friend, a group member, the group's owner, and nobody signed
/// in; and the other side's live `message.updated`.
@Suite(.serialized) struct MessageActionAuthorizationTests {
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
        let group = try unwrap(try await owner.call("group.create", ["name": "Actions"])["id"] as? String)
        _ = try await member.call("group.join", ["name": "Actions"])
        var counter = 0
        func id() -> String {
            counter += 1
            return "act-\(counter)"
        }
        func say(_ who: Chatter, _ conversation: String, _ text: String) async throws -> String {
            try unwrap(try await who.call("message.send", ["conversationId": conversation, "clientId": id(), "kind": "text", "text": text])["id"] as? String)
        }
        let ownersDirect = try await say(owner, direct, "to my friend")
        let ownersToBlocked = try await say(owner, blockedDirect, "before the block")
        let ownersGroup = try await say(owner, group, "hello group")
        let membersGroup = try await say(member, group, "hello owner")
        try await owner.call("block.add", ["userId": blocked.id])
        func on(_ conversation: String, _ message: String, _ extra: [String: Any] = [:]) -> [String: Any] {
            ["conversationId": conversation, "messageId": message, "clientId": id()].merging(extra) { $1 }
        }

        let table: [(String, Chatter, String, [String: Any], Expect)] = [
            ("friend reacts 1:1", friend, "message.react", on(direct, ownersDirect, ["emoji": "👍"]), .allow),
            ("friend edits the owner's message", friend, "message.edit", on(direct, ownersDirect, ["text": "x"]), .deny("not_sender")),
            ("friend recalls the owner's message", friend, "message.recall", on(direct, ownersDirect), .deny("not_sender")),
            ("stranger reacts 1:1", stranger, "message.react", on(direct, ownersDirect, ["emoji": "👍"]), .deny("not_member")),
            ("stranger hides 1:1", stranger, "message.hide", ["conversationId": direct, "messageId": ownersDirect], .deny("not_member")),
            ("stranger forwards from 1:1", stranger, "message.forward", on(direct, ownersDirect, ["to": direct]), .deny("not_member")),
            ("blocked reacts", blocked, "message.react", on(blockedDirect, ownersToBlocked, ["emoji": "👍"]), .deny("blocked")),
            ("blocked pins", blocked, "conversation.pin", on(blockedDirect, ownersToBlocked), .deny("blocked")),
            ("blocker edits their own", owner, "message.edit", on(blockedDirect, ownersToBlocked, ["text": "y"]), .deny("blocked")),
            ("a message of another conversation", friend, "message.react", on(direct, ownersGroup, ["emoji": "👍"]), .deny("not_found")),
            ("member pins in the group", member, "conversation.pin", on(group, ownersGroup), .allow),
            ("non-member pins in the group", stranger, "conversation.unpin", on(group, ownersGroup), .deny("not_member")),
            ("member recalls the owner's message", member, "message.recall", on(group, ownersGroup), .deny("not_sender")),
            ("member forwards into a chat that is not theirs", member, "message.forward", on(group, membersGroup, ["to": direct]), .deny("not_member")),
            ("friend forwards the owner's 1:1 message into it", friend, "message.forward", on(direct, ownersDirect, ["to": direct]), .allow),
            ("owner recalls the member's message", owner, "message.recall", on(group, membersGroup), .allow),
            ("sender edits their own", owner, "message.edit", on(group, ownersGroup, ["text": "hello, group"]), .allow),
            ("a reaction that is no emoji", member, "message.react", on(group, ownersGroup, ["emoji": "ok"]), .deny("invalid_field")),
        ]
        for (label, caller, op, data, expected) in table {
            let reply = try await caller.socket.call(op, data)
            let actual: Expect = reply["ok"] as? Bool == true
                ? .allow : .deny((reply["error"] as? [String: Any])?["code"] as? String ?? "?")
            #expect(actual == expected, "\(label): \(reply)")
        }

        // The other member hears each allowed group action live, with the message's state.
        let recall = try await member.event("message.updated") { data in
            ((data["event"] as? [String: Any])?["system"] as? [String: Any])?["type"] as? String == "message_recalled"
        }
        #expect((recall["message"] as? [String: Any])?["recalled"] != nil && (recall["message"] as? [String: Any])?["text"] == nil)
        let edit = try await member.event("message.updated") { data in
            ((data["event"] as? [String: Any])?["system"] as? [String: Any])?["type"] as? String == "message_edited"
        }
        #expect((edit["message"] as? [String: Any])?["text"] as? String == "hello, group")

        let anonymous = try await TestWebSocket(port: server.port)
        for op in ["message.edit", "message.recall", "message.hide", "message.react", "message.unreact", "message.forward",
                   "conversation.pin", "conversation.unpin"] {
            let reply = try await anonymous.call(op, ["conversationId": group])
            #expect((reply["error"] as? [String: Any])?["code"] as? String == "auth_required", "anonymous \(op)")
        }
    }
}
