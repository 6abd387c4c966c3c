import CoreTestSupport
import Foundation
import ParleyCore
import ParleyProtocol
import Testing

/// Read receipts and typing notices, decided by the core over a real SQLite store: who hears
/// what, how often, and when a typing notice ends by itself.
@Suite struct ReceiptsAndTypingTests {
    private func send(_ core: CoreFixture, from user: UserID, in conversation: ConversationID, _ clientId: String) async throws -> Message {
        try await core.conversations.send(from: user, SendParameters(conversationId: conversation, clientId: clientId, kind: .text, text: "hi"),
                                          connection: nil).message
    }

    private func receipts(_ sent: [RecordingDelivery.Sent]) -> [(ReceiptState, [UserID])] {
        sent.compactMap { if case .conversationReceipt(let state) = $0.event { (state, $0.users) } else { nil } }
    }

    private func typing(_ sent: [RecordingDelivery.Sent]) -> [(TypingNotice, [UserID])] {
        sent.compactMap { if case .typing(let notice) = $0.event { (notice, $0.users) } else { nil } }
    }

    private func code(_ body: () async throws -> Void) async -> ErrorCode? {
        do {
            try await body()
            return nil
        } catch let error as ProtocolError {
            return error.code
        } catch {
            return nil
        }
    }

    /// Polls `condition` every 5 ms for at most `seconds`.
    private func waitFor(_ seconds: Double, _ condition: () -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            if condition() { return true }
            try await Task.sleep(for: .milliseconds(5))
        }
        return condition()
    }

    @Test func aBurstReadAtOnceIsOneReceiptToTheSenderAndTheMarkerComesWithListAndHistory() async throws {
        let core = try CoreFixture()
        let amy = try await core.user("amy"), ben = try await core.user("ben")
        let conversation = try await core.befriend(amy, ben)
        var last: Message?
        for index in 0..<20 { last = try await send(core, from: amy, in: conversation, "m\(index)") }
        let newest = try unwrapped(last)
        _ = core.delivery.take()
        // Nothing read yet: amy's list and history say ben's marker is still before her messages.
        let before = try await core.conversations.list(for: amy)
        #expect(try unwrapped(before.conversations.first { $0.id == conversation }?.peerReadSeq) < newest.seq - 19)
        _ = try await core.conversations.markRead(for: ben, ReadParameters(conversationId: conversation, seq: newest.seq), connection: nil)
        let told = receipts(core.delivery.take())
        #expect(told.count == 1)
        #expect(told.first?.0 == ReceiptState(conversationId: conversation, userId: ben, readSeq: newest.seq, deliveredSeq: newest.seq))
        #expect(told.first?.1 == [amy])
        // The same marker again moves nothing and tells no one.
        _ = try await core.conversations.markRead(for: ben, ReadParameters(conversationId: conversation, seq: newest.seq), connection: nil)
        #expect(receipts(core.delivery.take()).isEmpty)
        // A client that was offline learns the state from the list (and sync) and history.
        let list = try await core.conversations.list(for: amy)
        #expect(list.conversations.first { $0.id == conversation }?.peerReadSeq == newest.seq)
        let synced = try await core.conversations.sync(for: amy, SyncParameters(since: [:]))
        #expect(synced.conversations.first { $0.id == conversation }?.peerReadSeq == newest.seq)
        let page = try await core.conversations.history(for: amy, HistoryParameters(conversationId: conversation))
        #expect(page.peerReadSeq == newest.seq)
    }

    @Test func aGroupCountsItsReadersFromTheMarkersAndPagesThem() async throws {
        let core = try CoreFixture()
        let owner = try await core.user("own")
        let group = try await core.groups.create(by: owner, CreateParameters(name: "club"))
        var members: [UserID] = []
        for index in 0..<5 {
            let member = try await core.user("mem\(index)")
            _ = try await core.groups.join(by: member, ConversationReference(conversationId: group.id))
            members.append(member)
        }
        let message = try await send(core, from: owner, in: group.id, "g1")
        _ = core.delivery.take()
        let none = try await core.conversations.readers(for: owner, ReadersParameters(conversationId: group.id, seq: message.seq))
        #expect(none.count == 0 && none.of == 5 && none.readers.isEmpty)
        // Three read (whether online or not: the count comes from the stored markers).
        core.delivery.setOnline(members[0])
        for member in members.prefix(3) {
            _ = try await core.conversations.markRead(for: member, ReadParameters(conversationId: group.id, seq: message.seq), connection: nil)
        }
        // No receipt is pushed per member in a group.
        #expect(receipts(core.delivery.take()).isEmpty)
        let first = try await core.conversations.readers(for: members[4],
                                                         ReadersParameters(conversationId: group.id, seq: message.seq, limit: 2))
        #expect(first.count == 3 && first.of == 5 && first.readers.map(\.id) == Array(members.prefix(2)))
        let second = try await core.conversations.readers(
            for: owner, ReadersParameters(conversationId: group.id, seq: message.seq, cursor: try unwrapped(first.nextCursor), limit: 2))
        #expect(second.readers.map(\.id) == [members[2]] && second.nextCursor == nil)
        // Outsiders learn nothing; an unknown seq is not found.
        let outsider = try await core.user("out")
        #expect(await code { _ = try await core.conversations.readers(for: outsider, ReadersParameters(conversationId: group.id, seq: 1)) }
            == .notMember)
        #expect(await code { _ = try await core.conversations.readers(for: owner, ReadersParameters(conversationId: group.id, seq: 999)) }
            == .notFound)
    }

    @Test func typingReachesTheOtherSideOnceAndEndsByItselfWithoutAStop() async throws {
        var rules = MessagingRules()
        // Long enough that the refresh below comes within it on a busy machine.
        rules.typingTimeout = .seconds(2)
        let core = try CoreFixture(rules: rules)
        let amy = try await core.user("amy"), ben = try await core.user("ben")
        let conversation = try await core.befriend(amy, ben)
        _ = core.delivery.take()
        let reference = ConversationReference(conversationId: conversation)
        try await core.conversations.typing.start(by: amy, reference)
        // A refresh within the timeout is not relayed again.
        try await core.conversations.typing.start(by: amy, reference)
        let started = typing(core.delivery.take())
        #expect(started.count == 1)
        #expect(started.first?.0 == TypingNotice(conversationId: conversation, userId: amy, typing: true) && started.first?.1 == [ben])
        #expect(core.conversations.typing.isTyping(amy, in: conversation))
        // No stop: the server ends it after the timeout and says so, once.
        let ended = try await waitFor(10) { !typing(core.delivery.events).isEmpty }
        #expect(ended)
        try await Task.sleep(for: .milliseconds(300))
        let stopped = typing(core.delivery.take())
        #expect(stopped.count == 1)
        #expect(stopped.first?.0 == TypingNotice(conversationId: conversation, userId: amy, typing: false) && stopped.first?.1 == [ben])
        #expect(!core.conversations.typing.isTyping(amy, in: conversation))
        // A stop ends it at once; a stop when not typing tells no one.
        try await core.conversations.typing.start(by: amy, reference)
        try core.conversations.typing.stop(by: amy, reference)
        try core.conversations.typing.stop(by: amy, reference)
        #expect(typing(core.delivery.take()).map(\.0.typing) == [true, false])
        try await Task.sleep(for: .milliseconds(300))
        #expect(typing(core.delivery.take()).isEmpty)
    }

    @Test func blockedUsersGetNoTypingAndOutsidersMayNotType() async throws {
        let core = try CoreFixture()
        let amy = try await core.user("amy"), ben = try await core.user("ben"), cat = try await core.user("cat")
        let conversation = try await core.befriend(amy, ben)
        try await core.social.block(ben, by: amy)
        _ = core.delivery.take()
        // 1:1: neither side may type to the other once one blocked.
        #expect(await code { try await core.conversations.typing.start(by: ben, ConversationReference(conversationId: conversation)) } == .blocked)
        #expect(await code { try await core.conversations.typing.start(by: amy, ConversationReference(conversationId: conversation)) } == .blocked)
        #expect(await code { try await core.conversations.typing.start(by: cat, ConversationReference(conversationId: conversation)) } == .notMember)
        // A group: the typist's blocked users are left out.
        let group = try await core.groups.create(by: amy, CreateParameters(name: "club"))
        _ = try await core.groups.join(by: ben, ConversationReference(conversationId: group.id))
        _ = try await core.groups.join(by: cat, ConversationReference(conversationId: group.id))
        _ = core.delivery.take()
        try await core.conversations.typing.start(by: amy, ConversationReference(conversationId: group.id))
        let told = typing(core.delivery.take())
        #expect(told.count == 1 && told.first?.1 == [cat])
        #expect(core.delivery.events.allSatisfy { $0.users.isEmpty || !$0.users.contains(ben) })
    }

    @Test func inARoomOnlyOccupantsHearTyping() async throws {
        let core = try CoreFixture()
        let amy = try await core.user("amy"), ben = try await core.user("ben"), cat = try await core.user("cat")
        let room = try await core.rooms.create(by: amy, CreateParameters(name: "lobby"))
        _ = try await core.rooms.enter(by: ben, NameReference(name: "lobby"))
        _ = core.delivery.take()
        try await core.conversations.typing.start(by: amy, ConversationReference(conversationId: room.room.id))
        #expect(typing(core.delivery.take()).map(\.1) == [[ben]])
        #expect(await code { try await core.conversations.typing.start(by: cat, ConversationReference(conversationId: room.room.id)) }
            == .notMember)
    }

    @Test func typingNoticesAreRateLimitedPerUser() async throws {
        var rules = MessagingRules()
        rules.typingPerMinute = 3
        let core = try CoreFixture(rules: rules)
        let amy = try await core.user("amy"), ben = try await core.user("ben")
        let conversation = try await core.befriend(amy, ben)
        let reference = ConversationReference(conversationId: conversation)
        try await core.conversations.typing.start(by: amy, reference)
        try core.conversations.typing.stop(by: amy, reference)
        try await core.conversations.typing.start(by: amy, reference)
        #expect(await code { try core.conversations.typing.stop(by: amy, reference) } == .rateLimited)
        // Ben's share is his own.
        try await core.conversations.typing.start(by: ben, reference)
        core.clock.advance(milliseconds: 60_001)
        try core.conversations.typing.stop(by: amy, reference)
    }
}

/// Delivered ticks and the privacy switches.
@Suite struct DeliveryAndPrivacyTests {
    private func send(_ core: CoreFixture, from user: UserID, in conversation: ConversationID, _ clientId: String) async throws -> Message {
        try await core.conversations.send(from: user, SendParameters(conversationId: conversation, clientId: clientId, kind: .text, text: "hi"),
                                          connection: nil).message
    }

    private func receipts(_ sent: [RecordingDelivery.Sent]) -> [ReceiptState] {
        sent.compactMap { if case .conversationReceipt(let state) = $0.event, $0.users.count == 1 { state } else { nil } }
    }

    private func waitFor(_ seconds: Double, _ condition: () -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            if condition() { return true }
            try await Task.sleep(for: .milliseconds(5))
        }
        return condition()
    }

    @Test func aMessageToAnOnlineRecipientIsDeliveredAtOnce() async throws {
        let core = try CoreFixture()
        let amy = try await core.user("amy"), ben = try await core.user("ben")
        let conversation = try await core.befriend(amy, ben)
        core.delivery.setOnline(ben)
        _ = core.delivery.take()
        let sent = try await send(core, from: amy, in: conversation, "c1")
        let arrived = try await waitFor(5) { !receipts(core.delivery.events).isEmpty }
        #expect(arrived)
        let told = core.delivery.events.filter { if case .conversationReceipt = $0.event { true } else { false } }
        #expect(told.map(\.users) == [[amy]])
        #expect(receipts(told) == [ReceiptState(conversationId: conversation, userId: ben, deliveredSeq: sent.seq)])
        let page = try await core.conversations.history(for: amy, HistoryParameters(conversationId: conversation))
        #expect(page.peerDeliveredSeq == sent.seq)
        #expect(try unwrapped(page.peerReadSeq) < sent.seq)
    }

    @Test func aBurstToAnOnlineRecipientIsDeliveredWithFewerReceiptsThanMessages() async throws {
        let core = try CoreFixture()
        let amy = try await core.user("amy"), ben = try await core.user("ben")
        let conversation = try await core.befriend(amy, ben)
        core.delivery.setOnline(ben)
        _ = core.delivery.take()
        let service = core.conversations
        let sent = try await withThrowingTaskGroup(of: Message.self) { group in
            for index in 0..<50 {
                group.addTask {
                    try await service.send(from: amy, SendParameters(conversationId: conversation, clientId: "burst\(index)", kind: .text,
                                                                     text: "hi"), connection: nil).message
                }
            }
            return try await group.reduce(into: [Message]()) { $0.append($1) }
        }
        let newest = try unwrapped(sent.map(\.seq).max())
        let done = try await waitFor(10) { receipts(core.delivery.events).last?.deliveredSeq == newest }
        #expect(done)
        let told = receipts(core.delivery.take())
        // Coalesced: the markers written while one write ran go out as one receipt each time.
        #expect(told.count < 50)
        #expect(zip(told, told.dropFirst()).allSatisfy { ($0.deliveredSeq ?? 0) < ($1.deliveredSeq ?? 0) })
        let stored = try await core.store.read { reader in try reader.deliveredSeq(in: conversation, user: ben) }
        #expect(stored == newest)
    }

    @Test func anOfflineRecipientsSyncDeliversOncePerConversation() async throws {
        let core = try CoreFixture()
        let amy = try await core.user("amy"), ben = try await core.user("ben")
        let conversation = try await core.befriend(amy, ben)
        var last: Message?
        for index in 0..<10 { last = try await send(core, from: amy, in: conversation, "c\(index)") }
        let newest = try unwrapped(last)
        // Ben is offline: nothing is delivered yet.
        try await Task.sleep(for: .milliseconds(50))
        #expect(receipts(core.delivery.take()).isEmpty)
        let before = try await core.conversations.list(for: amy)
        #expect(try unwrapped(before.conversations.first?.peerDeliveredSeq) < newest.seq - 9)
        // Ben comes back and syncs: one receipt for the ten messages.
        _ = try await core.conversations.sync(for: ben, SyncParameters(since: [:]))
        #expect(receipts(core.delivery.take()) == [ReceiptState(conversationId: conversation, userId: ben, deliveredSeq: newest.seq)])
        // A second sync moves nothing.
        _ = try await core.conversations.sync(for: ben, SyncParameters(since: [conversation.description: newest.seq]))
        #expect(receipts(core.delivery.take()).isEmpty)
        let after = try await core.conversations.sync(for: amy, SyncParameters(since: [conversation.description: newest.seq]))
        #expect(after.conversations.first?.peerDeliveredSeq == newest.seq)
    }

    @Test func readReceiptsOffHidesReadStateBothWaysButNotDelivery() async throws {
        let core = try CoreFixture()
        let amy = try await core.user("amy"), ben = try await core.user("ben")
        let conversation = try await core.befriend(amy, ben)
        let settings = try await core.conversations.setPrivacy(of: ben, PrivacySettings(readReceipts: false))
        #expect(try await core.conversations.privacy(of: ben) == settings)
        #expect(try await core.conversations.privacy(of: amy) == PrivacySettings())
        let fromBen = try await send(core, from: ben, in: conversation, "b1")
        let fromAmy = try await send(core, from: amy, in: conversation, "a1")
        _ = core.delivery.take()
        // Ben reads: amy learns it was delivered, not that it was read.
        _ = try await core.conversations.markRead(for: ben, ReadParameters(conversationId: conversation, seq: fromAmy.seq), connection: nil)
        #expect(receipts(core.delivery.take()) == [ReceiptState(conversationId: conversation, userId: ben, deliveredSeq: fromAmy.seq)])
        // Ben, who shares nothing, sees nothing of amy's reading either (her own send moved
        // her marker past his message: delivered shows, read does not).
        let amysView = try await core.conversations.history(for: amy, HistoryParameters(conversationId: conversation))
        let bensView = try await core.conversations.list(for: ben)
        #expect(amysView.peerReadSeq == nil && amysView.peerDeliveredSeq == fromAmy.seq)
        #expect(bensView.conversations.first?.peerReadSeq == nil && bensView.conversations.first?.peerDeliveredSeq == fromAmy.seq)
        // Turned back on, both see the markers again.
        _ = try await core.conversations.setPrivacy(of: ben, PrivacySettings())
        let again = try await core.conversations.history(for: amy, HistoryParameters(conversationId: conversation))
        let bensAgain = try await core.conversations.list(for: ben)
        #expect(again.peerReadSeq == fromAmy.seq && bensAgain.conversations.first?.peerReadSeq == fromAmy.seq)
    }

    @Test func typingOffIsRelayedToNoOne() async throws {
        let core = try CoreFixture()
        let amy = try await core.user("amy"), ben = try await core.user("ben")
        let conversation = try await core.befriend(amy, ben)
        _ = try await core.conversations.setPrivacy(of: amy, PrivacySettings(typing: false, lastSeen: .nobody))
        _ = core.delivery.take()
        try await core.conversations.typing.start(by: amy, ConversationReference(conversationId: conversation))
        #expect(core.delivery.take().isEmpty)
        #expect(!core.conversations.typing.isTyping(amy, in: conversation))
        try await core.conversations.typing.start(by: ben, ConversationReference(conversationId: conversation))
        #expect(core.delivery.take().map(\.users) == [[amy]])
    }
}
