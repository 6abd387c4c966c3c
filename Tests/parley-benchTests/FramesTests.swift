import Foundation
import ParleyProtocol
import Testing
@testable import parley_bench

@Suite struct FramesTests {
    private func parseParley(_ text: String) -> Incoming {
        Array(text.utf8).withUnsafeBytes { ParleyFrames.parse($0) }
    }

    private func parseRelay(_ text: String) -> Incoming {
        Array(text.utf8).withUnsafeBytes { RelayFrames.parse($0) }
    }

    @Test func stampsRoundTripAndAreFoundInsideJSON() {
        let text = MessageStamp.text(sentAt: 123_456_789_012, step: 7, size: 64)
        #expect(text.utf8.count == 64)
        let event = "{\"event\":\"message.new\",\"data\":{\"id\":\"9\",\"conversationId\":\"3\",\"seq\":2,\"sender\":\"1\",\"kind\":\"text\",\"text\":\"\(text)\"}}"
        #expect(parseParley(event) == .delivery(sentAt: 123_456_789_012, step: 7))
        let read = Array(text.utf8).withUnsafeBytes { MessageStamp.read($0, at: 0) }
        #expect(read?.sentAt == 123_456_789_012)
        #expect(read?.step == 7)
        #expect(Array("b|12|".utf8).withUnsafeBytes { MessageStamp.read($0, at: 0) } == nil)
        // Members in another order and with spaces are read the same.
        let reordered = "{\"event\":\"message.new\",\"data\":{\"text\":\"\(text)\", \"kind\":\"text\",\"id\":\"9\"}}"
        #expect(parseParley(reordered) == .delivery(sentAt: 123_456_789_012, step: 7))
    }

    /// `--action-every`: an action's client id is its stamp, read back from the peer's
    /// `message.updated`; a send's answer gives the id the next actions act on.
    @Test func messageActionsAreMeasuredByTheirStampedClientID() throws {
        let stamp = MessageStamp.text(sentAt: 4_242, step: 3, size: MessageStamp.headerSize) + "7-10"
        let update = MessageUpdate(
            event: Message(id: "12", conversationId: ConversationID(3), seq: 5, sender: UserID(1), clientId: stamp, kind: .system,
                           system: SystemNotice(type: .reactionAdded, actor: UserID(1), messageId: "9", emoji: "👍"), createdAt: 1),
            message: Message(id: "9", conversationId: ConversationID(3), seq: 4, sender: UserID(1), clientId: "b7-9", kind: .text,
                             text: MessageStamp.text(sentAt: 1, step: 3, size: 40), createdAt: 1))
        let frame = try #require(FrameWriter.event(.messageUpdated(update)))
        #expect(frame.withUnsafeBytes { ParleyFrames.parse($0) } == .delivery(sentAt: 4_242, step: 3))
        let answer = "{\"id\":77,\"ok\":true,\"data\":{\"id\":\"981\",\"conversationId\":\"3\",\"seq\":2}}"
        #expect(Array(answer.utf8).withUnsafeBytes { ParleyFrames.sentMessageID($0) } == "981")
        let actionAnswer = "{\"id\":78,\"ok\":true,\"data\":{\"event\":{\"id\":\"12\"}}}"
        #expect(Array(actionAnswer.utf8).withUnsafeBytes { ParleyFrames.sentMessageID($0) } == nil)
        let edit = ParleyFrames.edit(sentAt: 5, conversation: "3", message: "981", clientID: stamp, text: "x")
        let envelope = try FrameReader.request(Array(edit.utf8))
        #expect(envelope.op == "message.edit" && envelope.id == .number(5))
    }

    @Test func aTextMessageMustCarryItsStampAtTheStartOfItsText() {
        let stamp = MessageStamp.text(sentAt: 99, step: 1, size: 40)
        func event(_ data: String) -> String { "{\"event\":\"message.new\",\"data\":{\(data)}}" }
        // A stamp elsewhere than at the start of the text is not the delivery's.
        if case .malformed = parseParley(event("\"clientId\":\"\(stamp)\",\"kind\":\"text\",\"text\":\"hello\"")) {} else {
            Issue.record("a text message without a stamp must be malformed")
        }
        if case .malformed = parseParley(event("\"kind\":\"text\",\"text\":\"x\(stamp)\"")) {} else {
            Issue.record("a stamp inside the text is not the message's stamp")
        }
        if case .malformed = parseParley(event("\"kind\":\"text\",\"text\":\"b|0000|\"")) {} else {
            Issue.record("a cut-off stamp must be malformed")
        }
        // Not a text message: not measured, whatever it carries.
        #expect(parseParley(event("\"kind\":\"image\",\"text\":\"\(stamp)\"")) == .ignored)
        #expect(parseParley(event("\"kind\":\"text\",\"text\":\"\(stamp)\"")) == .delivery(sentAt: 99, step: 1))
    }

    @Test func parleyRepliesAndEvents() {
        #expect(parseParley("{\"id\":42,\"ok\":true,\"data\":{\"id\":\"1\"}}") == .ack(sentAt: 42))
        #expect(parseParley("{\"id\":42,\"ok\":false,\"error\":{\"code\":\"not_member\",\"message\":\"no\"}}") == .refused("not_member"))
        #expect(parseParley("{\"id\":null,\"ok\":false,\"error\":{\"code\":\"bad_request\",\"message\":\"no\"}}") == .refused("bad_request"))
        #expect(parseParley("{\"id\":\"s3\",\"ok\":true,\"data\":{}}") == .reply(id: "s3", ok: true))
        #expect(parseParley("{\"id\":\"s4\",\"ok\":false,\"error\":{}}") == .reply(id: "s4", ok: false))
        // System messages and other events carry no stamp and are not measured.
        #expect(parseParley("{\"event\":\"message.new\",\"data\":{\"kind\":\"system\",\"system\":{\"type\":\"member_joined\"}}}") == .ignored)
        #expect(parseParley("{\"event\":\"presence\",\"data\":{\"userId\":\"1\",\"online\":true}}") == .ignored)
        if case .malformed = parseParley("hello") {} else { Issue.record("plain text must be malformed") }
    }

    @Test func parleySendIsTheProtocolsRequest() {
        let frame = ParleyFrames.send(sentAt: 5, conversation: "12", clientID: "b1-1", text: "hi")
        #expect(frame == "{\"id\":5,\"op\":\"message.send\",\"data\":{\"conversationId\":\"12\",\"clientId\":\"b1-1\",\"kind\":\"text\",\"text\":\"hi\"}}")
    }

    @Test func relayCommandsAndAddressing() {
        #expect(RelayFrames.command("S u12") == .subscribe(topic: "u12"))
        #expect(RelayFrames.command("P 99 u12 b|payload with spaces") == .publish(id: "99", topic: "u12", payload: "b|payload with spaces"))
        #expect(RelayFrames.command(RelayFrames.publish(id: 7, topic: "g", payload: "x y")) == .publish(id: "7", topic: "g", payload: "x y"))
        #expect(RelayFrames.command("S two words") == nil)
        #expect(RelayFrames.command("P 1 topic-only") == nil)
        #expect(RelayFrames.command("X 1") == nil)
        #expect(RelayFrames.command("") == nil)
        #expect(parseRelay("A 123") == .ack(sentAt: 123))
        #expect(parseRelay("E unreadable frame") == .refused("unreadable frame"))
        let stamped = MessageStamp.text(sentAt: 77, step: 2, size: 40)
        #expect(parseRelay(stamped) == .delivery(sentAt: 77, step: 2))
        if case .malformed = parseRelay("something else") {} else { Issue.record("unstamped payloads must be malformed") }
    }
}
