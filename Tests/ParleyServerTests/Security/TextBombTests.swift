import Foundation
import Testing
@testable import ParleyServer

/// What one user sends another can never grow an answer past what the other's connection
/// takes: text is bounded in scalars and bytes, and lists others fill are paged by bytes.
@Suite(.serialized) struct TextBombTests {
    /// One grapheme cluster of about 40 KB: within one WebSocket frame, over every field's
    /// byte limit (a message's is 16,000).
    static let bomb = "a" + String(repeating: "\u{0301}", count: 20_000)

    @Test func oneCharacterOfMegabytesIsRefusedInEveryPathThatStoresText() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let amy = try await Chatter("amy", on: server)
        let ben = try await Chatter("ben", on: server)
        // The friend request that locked its target out.
        #expect(try await amy.refused("friend.request", ["username": "ben", "greeting": Self.bomb]) == "invalid_field")
        let conversation = try await amy.befriend(ben)
        #expect(try await amy.refused("message.send", ["conversationId": conversation, "clientId": "x", "kind": "text", "text": Self.bomb]) == "invalid_field")
        #expect(try await amy.refused("message.send", ["conversationId": conversation, "clientId": Self.bomb, "kind": "text", "text": "hi"]) == "invalid_field")
        #expect(try await amy.refused("group.create", ["name": Self.bomb]) == "invalid_name")
        #expect(try await amy.refused("group.create", ["name": "valid", "description": Self.bomb]) == "invalid_field")
        #expect(try await amy.refused("me.update", ["nickname": Self.bomb]) == "invalid_field")
        #expect(try await amy.refused("me.update", ["hobbies": [Self.bomb]]) == "invalid_field")
        let http = try await server.request("PATCH", "/v1/me", token: amy.token, json: ["signature": Self.bomb])
        #expect(http.status == 400 && http.errorCode == "invalid_field" && http.errorField == "signature")
        // Nothing of it was stored: the target still syncs, in a small answer.
        let sync = try await ben.call("sync", ["since": [:] as [String: Any]])
        #expect(try JSONSerialization.data(withJSONObject: sync).count < 16 * 1024)
    }

    @Test func aFloodOfFriendRequestsIsPagedWithinTheAnswerBudget() async throws {
        // 64 KiB queue bound: answers stay under 32 KiB.
        let server = try TestServer { $0.maxQueuedBytesPerConnection = 64 * 1024 }
        defer { server.stop() }
        let target = try await Chatter("target", on: server)
        // Each request is as large as the limits allow: escaped quotes everywhere.
        let quotes = String(repeating: "\"", count: 200)
        let senders = 30
        for index in 0..<senders {
            let sender = try await Chatter("flood\(index)", on: server)
            try await sender.call("me.update", ["signature": quotes, "nickname": String(repeating: "\"", count: 32),
                                                "hobbies": Array(repeating: String(repeating: "\"", count: 24), count: 10)])
            try await sender.call("friend.request", ["username": "target", "greeting": quotes])
            sender.socket.close()
        }
        let sync = try await target.call("sync", ["since": [:] as [String: Any]])
        #expect(try JSONSerialization.data(withJSONObject: sync).count <= 32 * 1024)
        let first = try unwrap(sync["friendRequests"] as? [[String: Any]])
        #expect(!first.isEmpty && first.count < senders)
        var cursor = try unwrap(sync["friendRequestsCursor"] as? String)
        var ids = Set(first.compactMap { $0["id"] as? String })
        while true {
            let page = try await target.call("friend.requests", ["direction": "incoming", "cursor": cursor])
            #expect(try JSONSerialization.data(withJSONObject: page).count <= 32 * 1024)
            for request in try unwrap(page["incoming"] as? [[String: Any]]) { ids.insert(try unwrap(request["id"] as? String)) }
            guard let next = page["nextIncomingCursor"] as? String else { break }
            cursor = next
        }
        #expect(ids.count == senders, "every request, once")
        // The first page of both lists without a direction stays within the budget too.
        let both = try await target.call("friend.requests")
        #expect(try JSONSerialization.data(withJSONObject: both).count <= 32 * 1024)
        #expect(both["nextIncomingCursor"] is String)
        #expect(try await target.refused("friend.requests", ["cursor": cursor]) == "missing_field")
        #expect(try await target.refused("friend.requests", ["direction": "incoming", "cursor": "nonsense"]) == "invalid_field")
    }

    @Test func friendsArePagedInOrder() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let amy = try await Chatter("amy", on: server)
        var expected: [String] = []
        for index in 0..<5 {
            let friend = try await Chatter("friend\(index)", on: server)
            _ = try await amy.befriend(friend)
            expected.append(friend.id)
        }
        var seen: [String] = []
        var cursor: String?
        repeat {
            var data: [String: Any] = ["limit": 2]
            if let cursor { data["cursor"] = cursor }
            let page = try await amy.call("friend.list", data)
            let friends = try unwrap(page["friends"] as? [[String: Any]])
            #expect(friends.count <= 2)
            seen += friends.compactMap { ($0["user"] as? [String: Any])?["id"] as? String }
            cursor = page["nextCursor"] as? String
        } while cursor != nil
        #expect(seen == expected, "oldest friendship first, each once")
    }
}
