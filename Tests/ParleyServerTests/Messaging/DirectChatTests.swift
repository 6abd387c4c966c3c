import Foundation
import Testing
@testable import ParleyServer

@Suite(.serialized) struct DirectChatTests {
    @Test func friendsChatBothWays() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let amy = try await Chatter("amy", on: server)
        let ben = try await Chatter("ben", on: server)
        let sent = try await amy.call("friend.request", ["username": "BEN", "greeting": "hello from amy"])
        let requestID = try unwrap((sent["request"] as? [String: Any])?["id"] as? String)
        let incoming = try await ben.event("friend.request")
        #expect(incoming["greeting"] as? String == "hello from amy")
        #expect((incoming["from"] as? [String: Any])?["username"] as? String == "amy")
        let friend = try await ben.call("friend.accept", ["requestId": requestID])
        let conversation = try unwrap(friend["conversationId"] as? String)
        let added = try await amy.event("friend.added")
        #expect((added["user"] as? [String: Any])?["username"] as? String == "ben")
        #expect(added["online"] as? Bool == true)
        let notice = try await amy.event("message.new") { $0["kind"] as? String == "system" }
        #expect((notice["system"] as? [String: Any])?["type"] as? String == "friend_added")

        let first = try await amy.send(conversation, "hi ben :)")
        #expect(first["seq"] as? Int == 2)
        let received = try await ben.event("message.new") { $0["text"] as? String == "hi ben :)" }
        #expect(received["id"] as? String == first["id"] as? String)
        #expect(received["sender"] as? String == amy.id)
        _ = try await ben.send(conversation, "hey amy")
        let reply = try await amy.event("message.new") { $0["text"] as? String == "hey amy" }
        #expect(reply["seq"] as? Int == 3)

        let history = try await ben.call("message.history", ["conversationId": conversation])
        let messages = try unwrap(history["messages"] as? [[String: Any]])
        #expect(messages.map { $0["seq"] as? Int } == [1, 2, 3])
        #expect(history["hasMore"] as? Bool == false)
        // Paging backwards.
        let older = try await ben.call("message.history", ["conversationId": conversation, "before": 3, "limit": 1])
        #expect((older["messages"] as? [[String: Any]])?.map { $0["seq"] as? Int } == [2])
        #expect(older["hasMore"] as? Bool == true)
    }

    @Test func retriedSendGivesOneMessage() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let amy = try await Chatter("amy", on: server)
        let ben = try await Chatter("ben", on: server)
        let conversation = try await amy.befriend(ben)
        let first = try await amy.send(conversation, "only once", clientId: "retry-1")
        let second = try await amy.send(conversation, "only once", clientId: "retry-1")
        #expect(first["id"] as? String == second["id"] as? String)
        #expect(first["seq"] as? Int == second["seq"] as? Int)
        _ = try await ben.event("message.new") { $0["text"] as? String == "only once" }
        try await Task.sleep(for: .milliseconds(300))
        #expect(ben.pendingEvents("message.new").filter { $0["text"] as? String == "only once" }.isEmpty)
        let history = try await ben.call("message.history", ["conversationId": conversation])
        #expect((history["messages"] as? [[String: Any]])?.filter { $0["text"] as? String == "only once" }.count == 1)
    }

    /// The message's JSON is written once per send, for the event, and the sender's answer
    /// reuses it: both must still say the same, including text that needs escapes.
    @Test func theAnswerAndTheEventCarryTheSameMessage() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let amy = try await Chatter("amy", on: server)
        let ben = try await Chatter("ben", on: server)
        let conversation = try await amy.befriend(ben)
        for text in ["plain", "quote \" backslash \\ tab\t line\n", "emoji 😀 and 中文 </script>"] {
            let answer = try await amy.send(conversation, text)
            let event = try await ben.event("message.new") { $0["text"] as? String == text }
            #expect(answer["text"] as? String == text)
            #expect(answer["sender"] as? String == amy.id)
            #expect(NSDictionary(dictionary: answer) == NSDictionary(dictionary: event))
        }
    }

    /// A send is answered alike whether `op` comes before `data` (read in one pass) or after
    /// it (read in two): the same message, or the same refusal, limits in bytes included.
    @Test func aSendIsAnsweredAlikeInEitherKeyOrder() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let amy = try await Chatter("amy", on: server)
        let ben = try await Chatter("ben", on: server)
        let conversation = try await amy.befriend(ben)
        func data(_ clientID: String, _ text: String, extra: String = "") -> String {
            #"{"conversationId":"\#(conversation)","clientId":"\#(clientID)","kind":"text","text":"\#(text)"\#(extra)}"#
        }
        let family = String(repeating: "👨‍👩‍👧‍👦", count: 700)  // 700 characters, 17,500 bytes: over in bytes only
        // Each case with the error code both orders must give ("" for none, nil: not pinned here).
        let cases: [(name: String, code: String?, data: (String) -> String)] = [
            ("plain", "", { data($0, "hi \\\"ben\\\"") }),
            ("over the text's bytes", "invalid_field", { data($0, family) }),
            ("over the text's characters", "invalid_field", { data($0, String(repeating: "a", count: 4_001)) }),
            ("blank text", "invalid_field", { data($0, "  ") }),
            ("an unknown field", nil, { data($0, "hi", extra: #","extra":1"#) }),
            ("no client id", "missing_field", { _ in #"{"conversationId":"\#(conversation)","kind":"text","text":"hi"}"# }),
            ("a number for the conversation", nil, { #"{"conversationId":\#(conversation),"clientId":"\#($0)","kind":"text","text":"hi"}"# }),
            ("a foreign conversation", nil, { data($0, "hi").replacingOccurrences(of: "\"\(conversation)\"", with: "\"999999\"") }),
        ]
        for (index, test) in cases.enumerated() {
            var answers: [[String: Any]] = []
            for (order, opFirst) in [true, false].enumerated() {
                let id = "r\(index)-\(order)"
                let body = test.data("c\(index)-\(order)")
                amy.socket.sendRaw(opFirst ? #"{"id":"\#(id)","op":"message.send","data":\#(body)}"#
                                           : #"{"data":\#(body),"op":"message.send","id":"\#(id)"}"#)
                answers.append(try await amy.socket.next { $0["id"] as? String == id })
            }
            let (first, second) = (answers[0], answers[1])
            if let code = test.code {
                #expect(((first["error"] as? [String: Any])?["code"] as? String ?? "") == code, "\(test.name): \(first)")
            }
            #expect(first["ok"] as? Bool == second["ok"] as? Bool, "\(test.name)")
            if first["ok"] as? Bool == true {
                let (a, b) = (try unwrap(first["data"] as? [String: Any]), try unwrap(second["data"] as? [String: Any]))
                #expect(a["text"] as? String == b["text"] as? String && a["kind"] as? String == b["kind"] as? String, "\(test.name)")
                #expect(a["clientId"] as? String == "c\(index)-0" && b["clientId"] as? String == "c\(index)-1", "\(test.name)")
                let text = a["text"] as? String
                _ = try await ben.event("message.new") { $0["clientId"] as? String == "c\(index)-0" && $0["text"] as? String == text }
                _ = try await ben.event("message.new") { $0["clientId"] as? String == "c\(index)-1" && $0["text"] as? String == text }
            } else {
                let (a, b) = (first["error"] as? [String: Any] ?? [:], second["error"] as? [String: Any] ?? [:])
                #expect(a["code"] as? String != nil && NSDictionary(dictionary: a) == NSDictionary(dictionary: b), "\(test.name): \(a) against \(b)")
            }
        }
    }

    /// Sends written back to back wait in the connection's queue and are answered one each,
    /// in the order sent, with no task per send: a refusal in the middle and a retry of an
    /// earlier client id included. The recipient gets each new message once, in order.
    @Test func pipelinedSendsAreAnsweredInOrderOnceEach() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let amy = try await Chatter("amy", on: server)
        let ben = try await Chatter("ben", on: server)
        let conversation = try await amy.befriend(ben)
        let texts = (0..<20).map { index in index == 7 ? "   " : "pipelined \(index)" }
        for (index, text) in texts.enumerated() {
            // The 12th repeats the 3rd's client id: a retry, answered with the stored message.
            let clientID = index == 12 ? "pipe-3" : "pipe-\(index)"
            try amy.socket.send(["id": "s\(index)", "op": "message.send",
                                 "data": ["conversationId": conversation, "clientId": clientID, "kind": "text", "text": text]])
        }
        _ = try await amy.socket.next { $0["id"] as? String == "s19" }
        let answers = amy.socket.pending.filter { ($0["id"] as? String)?.hasPrefix("s") == true }
        #expect(answers.map { $0["id"] as? String } == (0..<19).map { "s\($0)" }, "one answer each, in order (s19 taken)")
        let refusal = answers.first { $0["id"] as? String == "s7" }
        #expect(refusal?["ok"] as? Bool == false)
        #expect((refusal?["error"] as? [String: Any])?["code"] as? String == "invalid_field")
        let data = answers.compactMap { $0["data"] as? [String: Any] }
        let third = data.first { $0["clientId"] as? String == "pipe-3" && $0["text"] as? String == "pipelined 3" }
        let retry = answers.first { $0["id"] as? String == "s12" }?["data"] as? [String: Any]
        #expect(retry?["id"] as? String != nil && retry?["id"] as? String == third?["id"] as? String)
        let seqs = answers.filter { $0["id"] as? String != "s12" }.compactMap { ($0["data"] as? [String: Any])?["seq"] as? Int }
        #expect(seqs == Array(seqs.sorted()) && Set(seqs).count == 17, "17 new messages before s19, in order")
        // Ben: 18 new messages (20, less the refusal and the retry), each once, in order.
        _ = try await ben.event("message.new") { $0["text"] as? String == "pipelined 19" }
        let received = ben.pendingEvents("message.new").compactMap { $0["text"] as? String }.filter { $0.hasPrefix("pipelined") }
        #expect(received == (0..<19).filter { $0 != 7 && $0 != 12 }.map { "pipelined \($0)" })
    }

    @Test func sendersOtherDevicesGetTheMessage() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let amy = try await Chatter("amy", on: server)
        let ben = try await Chatter("ben", on: server)
        let conversation = try await amy.befriend(ben)
        let tablet = try await amy.anotherDevice()
        _ = try await amy.send(conversation, "from the phone")
        let echoed = try await tablet.next { ($0["data"] as? [String: Any])?["text"] as? String == "from the phone" }
        #expect(echoed["event"] as? String == "message.new")
        try await Task.sleep(for: .milliseconds(200))
        #expect(amy.pendingEvents("message.new").filter { $0["text"] as? String == "from the phone" }.isEmpty)
    }

    @Test func unreadCountsAndReadMarkers() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let amy = try await Chatter("amy", on: server)
        let ben = try await Chatter("ben", on: server)
        let conversation = try await amy.befriend(ben)
        for i in 1...3 { _ = try await amy.send(conversation, "m\(i)") }
        let list = try await ben.call("conversation.list")
        let row = try unwrap((list["conversations"] as? [[String: Any]])?.first)
        #expect(row["unread"] as? Int == 4)      // the friend notice and three messages
        #expect(list["totalUnread"] as? Int == 4)
        #expect((row["peer"] as? [String: Any])?["username"] as? String == "amy")
        #expect((row["lastMessage"] as? [String: Any])?["text"] as? String == "m3")
        // Amy's own messages are read for her.
        #expect(((try await amy.call("conversation.list"))["conversations"] as? [[String: Any]])?.first?["unread"] as? Int == 0)
        let laptop = try await ben.anotherDevice()
        let read = try await ben.call("conversation.read", ["conversationId": conversation, "seq": 3])
        #expect(read["unread"] as? Int == 1 && read["totalUnread"] as? Int == 1)
        let pushed = try await laptop.next { $0["event"] as? String == "conversation.read" }
        #expect((pushed["data"] as? [String: Any])?["readSeq"] as? Int == 3)
        // Never backwards, never past the end.
        #expect(try await ben.call("conversation.read", ["conversationId": conversation, "seq": 1])["readSeq"] as? Int == 3)
        #expect(try await ben.call("conversation.read", ["conversationId": conversation, "seq": 99])["readSeq"] as? Int == 4)
    }

    @Test func blockingStopsMessagesAndRequests() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let amy = try await Chatter("amy", on: server)
        let ben = try await Chatter("ben", on: server)
        let carl = try await Chatter("carl", on: server)
        let conversation = try await amy.befriend(ben)
        try await amy.call("block.add", ["userId": ben.id])
        #expect(try await ben.refused("message.send", ["conversationId": conversation, "clientId": "x", "kind": "text", "text": "hi"]) == "blocked")
        #expect(try await amy.refused("message.send", ["conversationId": conversation, "clientId": "y", "kind": "text", "text": "hi"]) == "blocked")
        _ = try await carl.call("friend.request", ["username": "amy"])
        try await carl.call("block.add", ["userId": amy.id])
        #expect(try await amy.refused("friend.request", ["username": "carl"]) == "blocked")
        let blocked = try await amy.call("block.list")
        #expect((blocked["users"] as? [[String: Any]])?.map { $0["username"] as? String } == ["ben"])
        try await amy.call("block.remove", ["userId": ben.id])
        _ = try await ben.send(conversation, "after unblock")
    }

    /// Sends cache that the two may write to each other; blocking, unblocking, unfriending and
    /// befriending again must each be seen by the very next send.
    @Test func permissionChangesAfterSendsTakeEffectAtOnce() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let amy = try await Chatter("amy", on: server)
        let ben = try await Chatter("ben", on: server)
        let conversation = try await amy.befriend(ben)
        _ = try await amy.send(conversation, "one")
        _ = try await ben.send(conversation, "two")
        try await amy.call("block.add", ["userId": ben.id])
        #expect(try await ben.refused("message.send", ["conversationId": conversation, "clientId": "b1", "kind": "text", "text": "hi"]) == "blocked")
        #expect(try await amy.refused("message.send", ["conversationId": conversation, "clientId": "a1", "kind": "text", "text": "hi"]) == "blocked")
        try await amy.call("block.remove", ["userId": ben.id])
        _ = try await ben.send(conversation, "three")
        try await ben.call("block.add", ["userId": amy.id])
        #expect(try await amy.refused("message.send", ["conversationId": conversation, "clientId": "a2", "kind": "text", "text": "hi"]) == "blocked")
        try await ben.call("block.remove", ["userId": amy.id])
        _ = try await amy.send(conversation, "four")
        try await amy.call("friend.remove", ["userId": ben.id])
        #expect(try await ben.refused("message.send", ["conversationId": conversation, "clientId": "b2", "kind": "text", "text": "hi"]) == "not_friends")
        #expect(try await amy.befriend(ben) == conversation)
        _ = try await ben.send(conversation, "five")
        // A retried text send is answered with the first message, not stored twice.
        let first = try await amy.call("message.send", ["conversationId": conversation, "clientId": "same", "kind": "text", "text": "once"])
        let again = try await amy.call("message.send", ["conversationId": conversation, "clientId": "same", "kind": "text", "text": "once"])
        #expect(first["id"] as? String == again["id"] as? String)
        #expect(first["seq"] as? Int == again["seq"] as? Int)
        let next = try await amy.send(conversation, "after the retry")
        #expect(next["seq"] as? Int == (first["seq"] as? Int).map { $0 + 1 })
    }

    @Test func exFriendsCannotMessage() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let amy = try await Chatter("amy", on: server)
        let ben = try await Chatter("ben", on: server)
        let conversation = try await amy.befriend(ben)
        try await amy.call("friend.remove", ["userId": ben.id])
        _ = try await ben.event("friend.removed")
        #expect(try await ben.refused("message.send", ["conversationId": conversation, "clientId": "z", "kind": "text", "text": "hi"]) == "not_friends")
        // History stays readable; befriending again reuses the conversation.
        #expect((try await ben.call("message.history", ["conversationId": conversation])["messages"] as? [Any])?.count == 1)
        #expect(try await amy.befriend(ben) == conversation)
    }

    @Test func requestingBackMakesFriendsAtOnce() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let amy = try await Chatter("amy", on: server)
        let ben = try await Chatter("ben", on: server)
        _ = try await amy.call("friend.request", ["userId": ben.id])
        let outcome = try await ben.call("friend.request", ["username": "amy"])
        #expect((outcome["friend"] as? [String: Any])?["conversationId"] is String)
        #expect(try await amy.refused("friend.request", ["username": "ben"]) == "already_friends")
        let requests = try await amy.call("friend.requests")
        #expect((requests["incoming"] as? [Any])?.isEmpty == true && (requests["outgoing"] as? [Any])?.isEmpty == true)
        let friends = try await amy.call("friend.list")
        #expect((friends["friends"] as? [[String: Any]])?.count == 1)
    }

    @Test func imageMessagesCarryTheUpload() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let amy = try await Chatter("amy", on: server)
        let ben = try await Chatter("ben", on: server)
        let conversation = try await amy.befriend(ben)
        let upload = try await server.request("POST", "/v1/media", token: amy.token, raw: MediaAPITests.png(width: 40, height: 30))
        let mediaID = try unwrap(upload.json["id"] as? String)
        let message = try await amy.call("message.send", ["conversationId": conversation, "clientId": "img", "kind": "image", "mediaId": mediaID])
        let image = try unwrap(message["image"] as? [String: Any])
        #expect(image["width"] as? Int == 40 && image["url"] as? String == "/v1/media/\(mediaID)")
        _ = try await ben.event("message.new") { $0["kind"] as? String == "image" }
        // Someone else's upload cannot be sent as yours.
        #expect(try await ben.refused("message.send", ["conversationId": conversation, "clientId": "img2", "kind": "image", "mediaId": mediaID]) == "invalid_field")
    }

    @Test func badMessagesAreRefusedWithTheirField() async throws {
        let server = try TestServer { $0.textLimits[.text].maxCharacters = 10 }
        defer { server.stop() }
        let amy = try await Chatter("amy", on: server)
        let ben = try await Chatter("ben", on: server)
        let conversation = try await amy.befriend(ben)
        let cases: [([String: Any], String)] = [
            (["conversationId": conversation, "clientId": "a", "kind": "text", "text": "   "], "invalid_field"),
            (["conversationId": conversation, "clientId": "b", "kind": "text", "text": "12345678901"], "invalid_field"),
            (["conversationId": conversation, "clientId": "", "kind": "text", "text": "x"], "invalid_field"),
            (["conversationId": conversation, "clientId": "c", "kind": "system", "text": "x"], "invalid_field"),
            (["conversationId": conversation, "clientId": "d", "kind": "image"], "missing_field"),
            (["conversationId": "999999", "clientId": "e", "kind": "text", "text": "x"], "not_found"),
            (["conversationId": conversation, "kind": "text", "text": "x"], "missing_field"),
        ]
        for (data, code) in cases {
            #expect(try await amy.refused("message.send", data) == code, "\(data)")
        }
        _ = try await amy.send(conversation, "1234567890")
    }
}
