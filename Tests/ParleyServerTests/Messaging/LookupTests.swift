import Foundation
import Testing
@testable import ParleyServer

/// `conversation.find` and `room.find` look ids up without changing anything.
@Suite(.serialized) struct LookupTests {
    @Test func aOneToOneConversationIsFoundWhileFriendsAndAfter() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let amy = try await Chatter("amy", on: server)
        let ben = try await Chatter("ben", on: server)
        let cat = try await Chatter("cat", on: server)
        #expect(try await amy.refused("conversation.find", ["userId": ben.id]) == "not_found")
        let conversation = try await amy.befriend(ben)
        #expect(try await amy.call("conversation.find", ["userId": ben.id])["conversationId"] as? String == conversation)
        #expect(try await ben.call("conversation.find", ["userId": amy.id])["conversationId"] as? String == conversation)
        #expect(try await cat.refused("conversation.find", ["userId": amy.id]) == "not_found")
        // Former friends keep the conversation (its history stays readable).
        try await amy.call("friend.remove", ["userId": ben.id])
        #expect(try await amy.call("conversation.find", ["userId": ben.id])["conversationId"] as? String == conversation)
        #expect(try await amy.refused("conversation.find", [:]) == "missing_field")
    }

    @Test func aRoomIsFoundByNameOrIdWithoutEnteringIt() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let amy = try await Chatter("amy", on: server)
        let ben = try await Chatter("ben", on: server)
        let entry = try await amy.call("room.create", ["name": "Lobby", "description": "hello"])
        let room = try unwrap((entry["room"] as? [String: Any])?["id"] as? String)
        let byName = try await ben.call("room.find", ["name": "lobby"])
        #expect(byName["id"] as? String == room && byName["name"] as? String == "Lobby" && byName["occupantCount"] as? Int == 1)
        let byID = try await ben.call("room.find", ["conversationId": room])
        #expect(byID["name"] as? String == "Lobby" && byID["description"] as? String == "hello")
        // Ben looked without entering: Amy is still alone and heard of nobody.
        #expect(try await amy.call("room.find", ["name": "Lobby"])["occupantCount"] as? Int == 1)
        #expect(!amy.pendingEvents("message.new").contains { ($0["system"] as? [String: Any])?["type"] as? String == "room_entered" })
        #expect(try await ben.refused("room.find", ["name": "nowhere"]) == "not_found")
        #expect(try await ben.refused("room.find", ["name": String(repeating: "x", count: 500)]) == "not_found")
        #expect(try await ben.refused("room.find", [:]) == "missing_field")
        // A group is not a room.
        let group = try await amy.call("group.create", ["name": "Team"])
        #expect(try await ben.refused("room.find", ["conversationId": try unwrap(group["id"] as? String)]) == "not_found")
    }
}
