import Foundation
import Testing
@testable import ParleyServer

/// Receipts, typing and privacy through the WebSocket: the typed operations are in the table,
/// the events reach the right people, and the flags reach the core.
@Suite(.serialized) struct ReceiptsWireTests {
    @Test func ticksAndTypingReachTheOtherSide() async throws {
        let server = try TestServer { $0.typingTimeoutSeconds = 1 }
        defer { server.stop() }
        let amy = try await Chatter("amy", on: server)
        let ben = try await Chatter("ben", on: server)
        let conversation = try await amy.befriend(ben)
        // Ben is online: amy's message is delivered at once, then read.
        let sent = try await amy.send(conversation, "tick tock")
        let seq = try unwrap(sent["seq"] as? Int)
        let delivered = try await amy.event("conversation.receipt") { $0["deliveredSeq"] as? Int == seq }
        #expect(delivered["userId"] as? String == ben.id && delivered["readSeq"] == nil)
        try await ben.call("conversation.read", ["conversationId": conversation, "seq": seq])
        let read = try await amy.event("conversation.receipt") { $0["readSeq"] as? Int == seq }
        #expect(read["conversationId"] as? String == conversation)
        let history = try await amy.call("message.history", ["conversationId": conversation])
        #expect(history["peerReadSeq"] as? Int == seq && history["peerDeliveredSeq"] as? Int == seq)

        // Typing: relayed to amy, never back to ben; ended by the server after 1 s. Timed
        // from before the call (the server's timer cannot start earlier), not from amy's
        // event, which a loaded machine may deliver late.
        let began = Date()
        try await ben.call("typing.start", ["conversationId": conversation])
        let started = try await amy.event("typing") { $0["typing"] as? Bool == true }
        #expect(started["userId"] as? String == ben.id)
        _ = try await amy.event("typing", timeout: 5) { $0["typing"] as? Bool == false }
        #expect(Date().timeIntervalSince(began) > 0.5)
        #expect(ben.pendingEvents("typing").isEmpty)

        // Privacy: typing off, read receipts off.
        let settings = try await ben.call("privacy.set", ["readReceipts": false, "typing": false, "lastSeen": "friends"])
        #expect(settings["lastSeen"] as? String == "friends")
        #expect(try await ben.call("privacy.get")["readReceipts"] as? Bool == false)
        try await ben.call("typing.start", ["conversationId": conversation])
        let again = try await amy.send(conversation, "second")
        let againSeq = try unwrap(again["seq"] as? Int)
        _ = try await amy.event("conversation.receipt") { $0["deliveredSeq"] as? Int == againSeq }
        try await ben.call("conversation.read", ["conversationId": conversation, "seq": againSeq])
        let list = try await amy.call("conversation.list")
        let row = try unwrap((list["conversations"] as? [[String: Any]])?.first { $0["id"] as? String == conversation })
        #expect(row["peerReadSeq"] == nil && row["peerDeliveredSeq"] as? Int == againSeq)
        #expect(amy.pendingEvents("typing").isEmpty)
        #expect(amy.pendingEvents("conversation.receipt").allSatisfy { $0["readSeq"] == nil })
        let missing = try await ben.refused("privacy.set", ["readReceipts": true])
        #expect(missing == "missing_field")
        #expect(try await ben.refused("message.readers", ["conversationId": conversation, "seq": 1]) == "not_found")
    }

    @Test func privacyComesWithPatchMe() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let amy = try await Chatter("amy", on: server)
        let patched = try await server.request("PATCH", "/v1/me", token: amy.token,
                                               json: ["nickname": "Amy", "privacy": ["readReceipts": false, "typing": false, "lastSeen": "nobody"]])
        #expect(patched.status == 200)
        let settings = try await amy.call("privacy.get")
        #expect(settings["readReceipts"] as? Bool == false && settings["typing"] as? Bool == false && settings["lastSeen"] as? String == "nobody")
        // A body without `privacy` leaves the choices alone; a bad one changes nothing.
        #expect(try await server.request("PATCH", "/v1/me", token: amy.token, json: ["nickname": "Amy B"]).status == 200)
        let bad = try await server.request("PATCH", "/v1/me", token: amy.token, json: ["nickname": "X", "privacy": ["typing": true]])
        #expect(bad.status == 400)
        #expect(try await amy.call("privacy.get")["lastSeen"] as? String == "nobody")
    }
}
