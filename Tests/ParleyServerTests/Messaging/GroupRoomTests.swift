import Foundation
import Testing
@testable import ParleyServer

@Suite(.serialized) struct GroupRoomTests {
    @Test func groupOfFiftyWithTwentyCatchingUp() async throws {
        let server = try TestServer()
        defer { server.stop() }
        var people: [Chatter] = []
        for i in 0..<50 { people.append(try await Chatter("member\(i)", on: server)) }
        let owner = people[0]
        let group = try await owner.call("group.create", ["name": "Hikers", "description": "weekend walks"])
        let groupID = try unwrap(group["id"] as? String)
        for person in people.dropFirst() {
            let joined = try await person.call("group.join", ["name": "hikers"])
            #expect(joined["id"] as? String == groupID)
        }
        #expect(try await owner.call("group.get", ["conversationId": groupID])["memberCount"] as? Int == 50)
        // Everyone reads up to now, then twenty go offline.
        let lastSeq = try unwrap((try await owner.call("message.history", ["conversationId": groupID, "limit": 1])["messages"] as? [[String: Any]])?.last?["seq"] as? Int)
        for person in people { try await person.call("conversation.read", ["conversationId": groupID, "seq": lastSeq]) }
        let offline = Array(people[30..<50])
        for person in offline { try await person.disconnect() }

        for i in 1...10 { _ = try await owner.send(groupID, "news \(i)") }
        for person in people[1..<30] {
            _ = try await person.event("message.new") { $0["text"] as? String == "news 10" }
            #expect(person.pendingEvents("message.new").filter { ($0["text"] as? String)?.hasPrefix("news") == true }.count == 9)
        }
        for person in offline {
            try await person.reconnect()
            let sync = try await person.call("sync", ["since": [groupID: lastSeq]])
            let texts = (sync["messages"] as? [[String: Any]])?.compactMap { $0["text"] as? String }
            #expect(texts == (1...10).map { "news \($0)" })
            let row = (sync["conversations"] as? [[String: Any]])?.first { $0["id"] as? String == groupID }
            #expect(row?["unread"] as? Int == 10)
            #expect(sync["totalUnread"] as? Int == 10)
            #expect((sync["truncated"] as? [Any])?.isEmpty == true)
        }
    }

    @Test func infoChangesAreSystemNotificationsForAll() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let owner = try await Chatter("owner", on: server)
        let member = try await Chatter("member", on: server)
        let outsider = try await Chatter("outsider", on: server)
        let groupID = try unwrap(try await owner.call("group.create", ["name": "Book Club"])["id"] as? String)
        _ = try await member.call("group.join", ["name": "book club"])
        let updated = try await member.call("group.update", ["conversationId": groupID, "name": "Readers", "description": "one book a month"])
        #expect(updated["name"] as? String == "Readers")
        for person in [owner, member] {
            let notice = try await person.event("message.new") { ($0["system"] as? [String: Any])?["type"] as? String == "info_changed" }
            let system = try unwrap(notice["system"] as? [String: Any])
            #expect(system["fields"] as? [String] == ["name", "description"])
            #expect(system["name"] as? String == "Readers")
            #expect(system["actor"] as? String == member.id)
        }
        try await Task.sleep(for: .milliseconds(200))
        #expect(outsider.pendingEvents("message.new").isEmpty)
        #expect(try await outsider.refused("group.update", ["conversationId": groupID, "name": "Mine"]) == "not_member")
        #expect(try await outsider.refused("message.history", ["conversationId": groupID]) == "not_member")
        #expect(try await outsider.refused("message.send", ["conversationId": groupID, "clientId": "o", "kind": "text", "text": "hi"]) == "not_member")
        // Names are unique per kind without regard to case.
        #expect(try await outsider.refused("group.create", ["name": "READERS"]) == "name_taken")
        _ = try await outsider.call("room.create", ["name": "Readers"])
    }

    @Test func ownerRemovesAndHandsOver() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let owner = try await Chatter("owner", on: server)
        let alice = try await Chatter("alice", on: server)
        let bob = try await Chatter("bob", on: server)
        let groupID = try unwrap(try await owner.call("group.create", ["name": "Team"])["id"] as? String)
        _ = try await alice.call("group.join", ["name": "Team"])
        _ = try await bob.call("group.join", ["name": "Team"])
        #expect(try await alice.refused("group.remove", ["conversationId": groupID, "userId": bob.id]) == "not_admin")
        try await owner.call("group.remove", ["conversationId": groupID, "userId": bob.id])
        let removed = try await bob.event("message.new") { ($0["system"] as? [String: Any])?["type"] as? String == "member_removed" }
        #expect((removed["system"] as? [String: Any])?["target"] as? String == bob.id)
        #expect(try await bob.refused("message.history", ["conversationId": groupID]) == "not_member")
        let handed = try await owner.call("group.transfer", ["conversationId": groupID, "userId": alice.id])
        #expect(handed["ownerId"] as? String == alice.id)
        #expect(try await owner.refused("group.transfer", ["conversationId": groupID, "userId": owner.id]) == "not_owner")
        let members = try await alice.call("group.members", ["conversationId": groupID])
        let roles = (members["members"] as? [[String: Any]])?.map { ($0["user"] as? [String: Any])?["username"] as? String ?? "" + ($0["role"] as? String ?? "") }
        #expect(roles?.count == 2)
        // The owner leaving hands the group on.
        try await alice.call("group.leave", ["conversationId": groupID])
        #expect(try await owner.call("group.get", ["conversationId": groupID])["ownerId"] as? String == owner.id)
    }

    /// Sends use the member lists kept in memory: every change of membership must show in
    /// the very next message, for delivery and for who may post.
    @Test func membershipChangesShowInTheNextMessage() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let owner = try await Chatter("owner", on: server)
        let alice = try await Chatter("alice", on: server)
        let bob = try await Chatter("bob", on: server)
        let groupID = try unwrap(try await owner.call("group.create", ["name": "Cached"])["id"] as? String)
        _ = try await alice.call("group.join", ["name": "Cached"])
        _ = try await owner.send(groupID, "one")   // the members are now kept in memory
        _ = try await alice.event("message.new") { $0["text"] as? String == "one" }

        _ = try await bob.call("group.join", ["name": "Cached"])
        _ = try await owner.send(groupID, "two")
        _ = try await bob.event("message.new") { $0["text"] as? String == "two" }
        _ = try await bob.send(groupID, "from bob")
        _ = try await alice.event("message.new") { $0["text"] as? String == "from bob" }

        try await alice.call("group.leave", ["conversationId": groupID])
        _ = try await owner.send(groupID, "three")
        _ = try await bob.event("message.new") { $0["text"] as? String == "three" }
        #expect(try await alice.refused("message.send", ["conversationId": groupID, "clientId": "a1", "kind": "text", "text": "hi"]) == "not_member")

        try await owner.call("group.remove", ["conversationId": groupID, "userId": bob.id])
        #expect(try await bob.refused("message.send", ["conversationId": groupID, "clientId": "b2", "kind": "text", "text": "hi"]) == "not_member")
        _ = try await owner.send(groupID, "four")
        _ = try await alice.call("group.join", ["name": "Cached"])
        _ = try await owner.send(groupID, "five")
        _ = try await alice.event("message.new") { $0["text"] as? String == "five" }
        // Neither the one who left nor the one removed heard what was said while they were out.
        #expect(!alice.pendingEvents("message.new").contains { $0["text"] as? String == "three" || $0["text"] as? String == "four" })
        #expect(!bob.pendingEvents("message.new").contains { $0["text"] as? String == "four" || $0["text"] as? String == "five" })
    }

    @Test func roomsReachOnlyOccupantsAndEmptyOnDisconnect() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let host = try await Chatter("host", on: server)
        let guest = try await Chatter("guest", on: server)
        let passer = try await Chatter("passer", on: server)
        let created = try await host.call("room.create", ["name": "Lobby"])
        let roomID = try unwrap((created["room"] as? [String: Any])?["id"] as? String)
        let entered = try await guest.call("room.enter", ["name": "LOBBY"])
        #expect((entered["room"] as? [String: Any])?["occupantCount"] as? Int == 2)
        #expect((entered["messages"] as? [[String: Any]])?.contains { ($0["system"] as? [String: Any])?["type"] as? String == "room_created" } == true)
        _ = try await host.event("message.new") { ($0["system"] as? [String: Any])?["type"] as? String == "room_entered" }
        _ = try await host.send(roomID, "welcome")
        _ = try await guest.event("message.new") { $0["text"] as? String == "welcome" }
        try await Task.sleep(for: .milliseconds(200))
        #expect(passer.pendingEvents("message.new").isEmpty)
        #expect(try await passer.refused("message.send", ["conversationId": roomID, "clientId": "p", "kind": "text", "text": "hi"]) == "not_member")
        #expect(try await passer.refused("room.create", ["name": "lobby"]) == "name_taken")
        let occupants = try await host.call("room.occupants", ["conversationId": roomID])
        #expect((occupants["users"] as? [Any])?.count == 2)
        // The guest's connection drops: they leave the room.
        try await guest.disconnect()
        let left = try await host.event("message.new") { ($0["system"] as? [String: Any])?["type"] as? String == "room_left" }
        #expect((left["system"] as? [String: Any])?["actor"] as? String == guest.id)
        #expect((try await host.call("room.occupants", ["conversationId": roomID])["users"] as? [Any])?.count == 1)
        // Back again: they re-enter and see the recent history.
        try await guest.reconnect()
        let back = try await guest.call("room.enter", ["name": "Lobby"])
        #expect((back["messages"] as? [[String: Any]])?.contains { $0["text"] as? String == "welcome" } == true)
        // Everyone leaves; the name stays taken and the room can be entered again.
        try await host.call("room.leave", ["conversationId": roomID])
        try await guest.call("room.leave", ["conversationId": roomID])
        #expect(try await passer.refused("room.create", ["name": "Lobby"]) == "name_taken")
        #expect((try await passer.call("room.enter", ["name": "Lobby"])["room"] as? [String: Any])?["occupantCount"] as? Int == 1)
    }

    @Test func occupantsEditTheRoomAndEveryoneInItSeesIt() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let host = try await Chatter("host", on: server)
        let guest = try await Chatter("guest", on: server)
        let outsider = try await Chatter("outsider", on: server)
        let roomID = try unwrap((try await host.call("room.create", ["name": "Porch"])["room"] as? [String: Any])?["id"] as? String)
        _ = try await guest.call("room.enter", ["name": "Porch"])
        let updated = try await guest.call("room.update", ["conversationId": roomID, "name": "Veranda", "description": "evening talk"])
        #expect(updated["name"] as? String == "Veranda")
        #expect(updated["occupantCount"] as? Int == 2)
        for person in [host, guest] {
            let notice = try await person.event("message.new") { ($0["system"] as? [String: Any])?["type"] as? String == "info_changed" }
            #expect((notice["system"] as? [String: Any])?["fields"] as? [String] == ["name", "description"])
        }
        #expect(try await outsider.refused("room.update", ["conversationId": roomID, "name": "Mine"]) == "not_member")
        _ = try await outsider.call("room.create", ["name": "Attic"])
        #expect(try await outsider.refused("room.update", ["conversationId": try unwrap(((try await outsider.call("room.enter", ["name": "Attic"]))["room"] as? [String: Any])?["id"] as? String), "name": "veranda"]) == "name_taken")
        #expect(try await guest.refused("room.update", ["conversationId": roomID, "name": "x"]) == "invalid_name")
    }

    @Test func liftingARoomBanIsANoticeForTheOccupantsAndTheDoorOpens() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let host = try await Chatter("host", on: server)
        let guest = try await Chatter("guest", on: server)
        let pest = try await Chatter("pest", on: server)
        let roomID = try unwrap((try await host.call("room.create", ["name": "Deck"])["room"] as? [String: Any])?["id"] as? String)
        _ = try await guest.call("room.enter", ["name": "Deck"])
        try await host.call("room.ban", ["conversationId": roomID, "userId": pest.id])
        #expect(try await pest.refused("room.enter", ["name": "Deck"]) == "banned")
        try await host.call("room.unban", ["conversationId": roomID, "userId": pest.id])
        for person in [host, guest] {
            let notice = try await person.event("message.new") { ($0["system"] as? [String: Any])?["type"] as? String == "member_unbanned" }
            #expect((notice["system"] as? [String: Any])?["actor"] as? String == host.id)
            #expect((notice["system"] as? [String: Any])?["target"] as? String == pest.id)
        }
        #expect(try await host.refused("room.unban", ["conversationId": roomID, "userId": pest.id]) == "not_found")
        let entered = try await pest.call("room.enter", ["name": "Deck"])
        #expect((entered["messages"] as? [[String: Any]])?.contains { ($0["system"] as? [String: Any])?["type"] as? String == "member_unbanned" } == true)
    }
}
