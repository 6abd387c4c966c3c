import ParleyCore
import ParleyProtocol
import Testing

@Suite struct PushCoalescerTests {
    let mei = UserID(1)
    let bob = UserID(2)
    let lobby = ConversationID(10)
    let garden = ConversationID(11)

    func message(_ seq: Int64, in conversation: ConversationID, text: String = "hi") -> Message {
        Message(id: "m\(conversation)-\(seq)", conversationId: conversation, seq: seq, sender: bob, clientId: "c\(seq)", kind: .text,
                text: text, createdAt: seq)
    }

    @Test func aBurstInOneConversationIsOneNotificationWithItsCount() {
        let coalescer = PushCoalescer(perUserPerMinute: 10)
        #expect(coalescer.add(message(1, in: lobby), for: mei) == .opened)
        #expect(coalescer.add(message(3, in: lobby), for: mei) == .coalesced)
        #expect(coalescer.add(message(2, in: lobby), for: mei) == .coalesced)
        #expect(coalescer.add(message(1, in: garden), for: mei) == .opened)
        #expect(coalescer.add(message(1, in: lobby), for: bob) == .opened)
        guard case .send(let pending) = coalescer.take(mei, lobby, now: 1_000) else {
            Issue.record("nothing to send")
            return
        }
        #expect(pending.count == 3)
        #expect(pending.newest.seq == 3)
        #expect(coalescer.take(mei, lobby, now: 1_000) == .none)
        // The next message opens a new notification.
        #expect(coalescer.add(message(4, in: lobby), for: mei) == .opened)
    }

    @Test func eachUserGetsAtMostTheLimitPerMinute() {
        let coalescer = PushCoalescer(perUserPerMinute: 2)
        var outcomes: [String] = []
        for seq in Int64(1)...3 {
            _ = coalescer.add(message(seq, in: lobby), for: mei)
            switch coalescer.take(mei, lobby, now: 1_000 + seq) {
            case .send: outcomes.append("send")
            case .dropped: outcomes.append("dropped")
            default: outcomes.append("other")
            }
        }
        #expect(outcomes == ["send", "send", "dropped"])
        // Another user has a limit of their own, and a minute later mei has hers back.
        _ = coalescer.add(message(4, in: lobby), for: bob)
        if case .send = coalescer.take(bob, lobby, now: 1_010) {} else { Issue.record("bob was limited by mei's pushes") }
        _ = coalescer.add(message(5, in: lobby), for: mei)
        if case .send = coalescer.take(mei, lobby, now: 61_010) {} else { Issue.record("the limit did not renew after a minute") }
    }

    @Test func mutesHoldNotificationsBackUntilTheyExpire() {
        let coalescer = PushCoalescer(perUserPerMinute: 10)
        _ = coalescer.add(message(1, in: lobby), for: mei)
        #expect(coalescer.take(mei, lobby, now: 1_000, allowedBy: ConversationMute()) == .muted)
        _ = coalescer.add(message(2, in: lobby), for: mei)
        #expect(coalescer.take(mei, lobby, now: 1_000, allowedBy: ConversationMute(until: 2_000)) == .muted)
        _ = coalescer.add(message(3, in: lobby), for: mei)
        if case .send = coalescer.take(mei, lobby, now: 2_000, allowedBy: ConversationMute(until: 2_000)) {} else {
            Issue.record("an expired mute still held the notification back")
        }
    }

    @Test func mentionsOnlyLetsMentionsThrough() {
        #expect(PushCoalescer.allows(nil, mentioned: false, now: 0))
        #expect(!PushCoalescer.allows(ConversationMute(mentionsOnly: true), mentioned: false, now: 0))
        #expect(PushCoalescer.allows(ConversationMute(mentionsOnly: true), mentioned: true, now: 0))
        #expect(!PushCoalescer.allows(ConversationMute(mentionsOnly: false), mentioned: true, now: 0))
        // A mention is the message's list of user ids (or `@all`), not text that looks like one.
        #expect(!message(1, in: lobby, text: "@mei look").mentions(mei))
        var mentioning = message(2, in: lobby, text: "@mei look")
        mentioning.mentions = [mei]
        #expect(mentioning.mentions(mei))
        let coalescer = PushCoalescer(perUserPerMinute: 10)
        #expect(coalescer.add(mentioning, for: mei) == .opened)
        if case .send = coalescer.take(mei, lobby, now: 0, allowedBy: ConversationMute(mentionsOnly: true)) {} else {
            Issue.record("a mention was held back by a mentions-only mute")
        }
    }

    @Test func aFullQueueRefusesAndDiscardForgets() {
        let coalescer = PushCoalescer(perUserPerMinute: 10, maxPending: 1)
        #expect(coalescer.add(message(1, in: lobby), for: mei) == .opened)
        #expect(coalescer.add(message(1, in: garden), for: mei) == .refused)
        coalescer.discard(mei, lobby)
        #expect(coalescer.take(mei, lobby, now: 0) == .none)
        #expect(coalescer.add(message(1, in: garden), for: mei) == .opened)
    }
}
