import ParleyProtocol
import Testing
@testable import ParleyXMPP

@Suite struct AwaitedReceiptsTests {
    let a = ConversationID(rawValue: 3)
    let b = ConversationID(rawValue: 5)

    func sent(_ conversation: ConversationID, _ seq: Int64, receipt: Bool = true, markable: Bool = true) -> AwaitedReceipts.Sent {
        AwaitedReceipts.Sent(conversation: conversation, seq: seq, stanzaID: "m\(seq)", receipt: receipt, markable: markable)
    }

    @Test func deliveredAnswersReceiptsOnceAndReadMarksTheNewestMarkable() {
        var awaited = AwaitedReceipts(limit: 8)
        #expect(awaited.record(sent(a, 1)) == .init())
        #expect(awaited.record(sent(a, 2, receipt: false)) == .init())
        #expect(awaited.record(sent(a, 3, markable: false)) == .init())
        #expect(awaited.record(sent(b, 4)) == .init())
        #expect(awaited.record(sent(a, 6)) == .init())
        // Delivered through 3: receipts for the two that asked, nothing displayed, b untouched.
        #expect(awaited.answer(in: a, delivered: 3, read: nil) == .init(received: ["m1", "m3"]))
        #expect(awaited.answer(in: a, delivered: 3, read: nil) == .init())
        // Read through 6: 6's receipt, and one displayed for the newest markable (6, not 1 or 2).
        #expect(awaited.answer(in: a, delivered: 6, read: 6) == .init(received: ["m6"], displayed: "m6"))
        #expect(awaited.answer(in: a, delivered: 9, read: 9) == .init())
        #expect(awaited.answer(in: b, delivered: 4, read: nil) == .init(received: ["m4"]))
    }

    @Test func readReceiptsOffGiveNoDisplayedLater() {
        var awaited = AwaitedReceipts(limit: 8)
        _ = awaited.record(sent(a, 1))
        #expect(awaited.answer(in: a, delivered: 1, read: nil) == .init(received: ["m1"]))
        // Still markable: a later read marker (receipts turned back on) marks it.
        #expect(awaited.answer(in: a, delivered: 1, read: 1) == .init(displayed: "m1"))
    }

    @Test func aMessageRecordedAfterItsMarkersMovedIsAnsweredAtOnce() {
        var awaited = AwaitedReceipts(limit: 8)
        #expect(awaited.answer(in: a, delivered: 4, read: nil) == .init())
        #expect(awaited.record(sent(a, 4)) == .init(received: ["m4"]))
        #expect(awaited.record(sent(a, 5)) == .init())
    }

    @Test func onlyTheNewestAreKeptAndUnaskedOnesNotAtAll() {
        var awaited = AwaitedReceipts(limit: 2)
        _ = awaited.record(sent(a, 1, receipt: false, markable: false))
        for seq in Int64(2)...5 { _ = awaited.record(sent(a, seq, markable: false)) }
        #expect(awaited.answer(in: a, delivered: 5, read: nil) == .init(received: ["m4", "m5"]))
    }

    @Test func stanzasComeFromThePeerWithTheirIds() {
        let answer = AwaitedReceipts.Answer(received: ["x1"], displayed: "x2")
        let stanzas = answer.stanzas(from: JID(local: "bob", domain: "example.org", resource: nil),
                                     to: JID(local: "mei", domain: "example.org", resource: "phone"))
        #expect(stanzas.map { $0.serialized() } == [
            "<message type='chat' from='bob@example.org' to='mei@example.org/phone'><received xmlns='urn:xmpp:receipts' id='x1'/></message>",
            "<message type='chat' from='bob@example.org' to='mei@example.org/phone'><displayed xmlns='urn:xmpp:chat-markers:0' id='x2'/></message>",
        ])
    }
}
