import Foundation
import Testing
@testable import ParleyServer

@Suite(.serialized) struct DiscoverPresenceTests {
    @Test func mutualLikesMatch() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let amy = try await Chatter("amy", on: server)
        let ben = try await Chatter("ben", on: server)
        let cat = try await Chatter("cat", on: server)
        let deck = try await amy.call("discover.deck")
        #expect((deck["cards"] as? [[String: Any]])?.compactMap { $0["username"] as? String } == ["ben", "cat"])
        #expect(try await amy.call("discover.like", ["userId": ben.id])["matched"] as? Bool == false)
        try await amy.call("discover.pass", ["userId": cat.id])
        #expect((try await amy.call("discover.deck")["cards"] as? [Any])?.isEmpty == true)
        // Undo brings back the last card.
        let undone = try await amy.call("discover.undo")
        #expect((undone["card"] as? [String: Any])?["username"] as? String == "cat")
        #expect((try await amy.call("discover.deck")["cards"] as? [[String: Any]])?.compactMap { $0["username"] as? String } == ["cat"])

        let match = try await ben.call("discover.like", ["userId": amy.id])
        #expect(match["matched"] as? Bool == true)
        let conversation = try unwrap((match["friend"] as? [String: Any])?["conversationId"] as? String)
        for person in [amy, ben] {
            _ = try await person.event("friend.added")
            let notice = try await person.event("message.new") { ($0["system"] as? [String: Any])?["type"] as? String == "matched" }
            #expect(notice["conversationId"] as? String == conversation)
        }
        #expect(try await ben.refused("discover.undo") == "already_friends")
        // Friends leave each other's decks.
        #expect((try await ben.call("discover.deck")["cards"] as? [[String: Any]])?.compactMap { $0["username"] as? String } == ["cat"])
    }

    @Test func presenceOncePerRealChange() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let amy = try await Chatter("amy", on: server)
        let ben = try await Chatter("ben", on: server)
        _ = try await amy.befriend(ben)
        try await ben.disconnect()
        _ = try await amy.event("presence") { $0["userId"] as? String == ben.id && $0["online"] as? Bool == false }
        try await ben.reconnect()
        _ = try await amy.event("presence") { $0["userId"] as? String == ben.id && $0["online"] as? Bool == true }
        // A second device of an online user changes nothing.
        let second = try await ben.anotherDevice()
        second.close()
        _ = try await second.closed()
        try await Task.sleep(for: .milliseconds(500))
        #expect(amy.pendingEvents("presence").isEmpty)
        let friends = try await amy.call("friend.list")
        #expect((friends["friends"] as? [[String: Any]])?.first?["online"] as? Bool == true)
    }
}
