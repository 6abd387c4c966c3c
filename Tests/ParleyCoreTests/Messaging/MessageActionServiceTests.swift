import CoreTestSupport
import Foundation
import ParleyCore
import ParleyProtocol
import Testing

/// Edit, recall, delete for me, reactions, replies, mentions, forward and pins: each rule,
/// decided by the core over a real SQLite store.
@Suite struct MessageActionServiceTests {
    /// Two friends and one text message from the first.
    private func pair(_ core: CoreFixture, text: String = "helo") async throws -> (UserID, UserID, ConversationID, Message) {
        let amy = try await core.user("amy"), ben = try await core.user("ben")
        let conversation = try await core.befriend(amy, ben)
        let sent = try await send(core, from: amy, in: conversation, text: text, clientId: "m1")
        _ = core.delivery.take()
        return (amy, ben, conversation, sent)
    }

    private func send(_ core: CoreFixture, from user: UserID, in conversation: ConversationID, text: String, clientId: String,
                      replyTo: String? = nil, mentions: [UserID]? = nil, all: Bool? = nil) async throws -> Message {
        try await core.conversations.send(from: user, SendParameters(conversationId: conversation, clientId: clientId, kind: .text,
                                                                     text: text, replyTo: replyTo, mentions: mentions, mentionsAll: all),
                                          connection: nil).message
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

    @Test func anEditIsAnEventInTheSequenceAndTheMessageShowsTheNewText() async throws {
        let core = try CoreFixture()
        let (amy, ben, conversation, sent) = try await pair(core)
        let phone = ConnectionToken(4)
        let unreadBefore = try await core.conversations.list(for: ben).conversations.first?.unread
        let update = try await core.conversations.actions.edit(
            by: amy, EditParameters(conversationId: conversation, messageId: sent.id, clientId: "e1", text: "hello"), connection: phone)
        #expect(update.event.seq == sent.seq + 1)
        #expect(update.event.system?.type == .messageEdited && update.event.system?.messageId == sent.id)
        #expect(update.message.text == "hello" && update.message.editedAt == core.clock.now)
        let told = core.delivery.take()
        #expect(told.map(\.event) == [.messageUpdated(update)] && told.first?.excluding == phone)
        #expect(Set(told.first?.users ?? []) == [amy, ben])
        // A retry of the same action is answered from the store and announced to no one.
        let again = try await core.conversations.actions.edit(
            by: amy, EditParameters(conversationId: conversation, messageId: sent.id, clientId: "e1", text: "hello"), connection: phone)
        #expect(again.event == update.event)
        #expect(core.delivery.take().isEmpty)
        // History shows the message as it is now, and the event only when asked.
        let page = try await core.conversations.history(for: ben, HistoryParameters(conversationId: conversation))
        #expect(page.messages.last?.text == "hello" && page.messages.last?.editedAt != nil)
        #expect(!page.messages.contains { $0.system?.type == .messageEdited })
        let withEvents = try await core.conversations.history(for: ben, HistoryParameters(conversationId: conversation, events: true))
        #expect(withEvents.messages.last?.system?.type == .messageEdited)
        // The edit is in the sequence, but changes a message already counted: the other side
        // has no more unread than before.
        let list = try await core.conversations.list(for: ben)
        #expect(list.conversations.first?.lastSeq == update.event.seq)
        #expect(unreadBefore != nil && list.conversations.first?.unread == unreadBefore)
        #expect(list.totalUnread == unreadBefore)
    }

    @Test func onlyTheSenderEditsAndOnlyWithinTheWindow() async throws {
        var rules = MessagingRules()
        rules.editWindow = 60_000
        let core = try CoreFixture(rules: rules)
        let (amy, ben, conversation, sent) = try await pair(core)
        let cat = try await core.user("cat")
        let edit = { (user: UserID, id: String) in
            _ = try await core.conversations.actions.edit(
                by: user, EditParameters(conversationId: conversation, messageId: sent.id, clientId: id, text: "x"), connection: nil)
        }
        #expect(await code { try await edit(ben, "b") } == .notSender)
        #expect(await code { try await edit(cat, "c") } == .notMember)
        core.clock.advance(milliseconds: 60_001)
        #expect(await code { try await edit(amy, "a") } == .windowClosed)
        #expect(await code {
            _ = try await core.conversations.actions.edit(
                by: amy, EditParameters(conversationId: conversation, messageId: "999999", clientId: "z", text: "x"), connection: nil)
        } == .notFound)
        #expect(core.delivery.take().isEmpty)
        let page = try await core.conversations.history(for: amy, HistoryParameters(conversationId: conversation, events: true))
        #expect(page.messages.last?.text == "helo", "nothing refused was stored")
    }

    @Test func aRecallErasesTheTextAndLeavesATombstone() async throws {
        let core = try CoreFixture()
        let (amy, ben, conversation, sent) = try await pair(core, text: "wrong-chat-secret-4711")
        let reply = try await send(core, from: ben, in: conversation, text: "what?", clientId: "r1", replyTo: sent.id)
        #expect(reply.replyTo?.excerpt == "wrong-chat-secret-4711" && reply.replyTo?.seq == sent.seq)
        let update = try await core.conversations.actions.recall(
            by: amy, MessageActionParameters(conversationId: conversation, messageId: sent.id, clientId: "x1"), connection: nil)
        #expect(update.message.text == nil && update.message.recalled == RecallMark(by: amy, at: core.clock.now))
        #expect(update.event.system?.type == .messageRecalled)
        let page = try await core.conversations.history(for: ben, HistoryParameters(conversationId: conversation))
        let shown = try #require(page.messages.first { $0.id == sent.id })
        #expect(shown.text == nil && shown.recalled != nil)
        // The reply's preview no longer quotes it.
        let quoting = try #require(page.messages.first { $0.id == reply.id })
        #expect(quoting.replyTo?.recalled == true && quoting.replyTo?.excerpt == nil)
        // Gone from the database files, WAL included.
        for suffix in ["", "-wal"] {
            let bytes = (try? Data(contentsOf: URL(fileURLWithPath: core.directory + "/core.sqlite" + suffix))) ?? Data()
            #expect(bytes.range(of: Data("wrong-chat-secret-4711".utf8)) == nil, "found in core.sqlite\(suffix)")
        }
        // Twice is refused; reactions on a recalled message too.
        #expect(await code {
            _ = try await core.conversations.actions.recall(
                by: amy, MessageActionParameters(conversationId: conversation, messageId: sent.id, clientId: "x2"), connection: nil)
        } == .invalidField)
        #expect(await code {
            _ = try await core.conversations.actions.react(
                by: ben, ReactParameters(conversationId: conversation, messageId: sent.id, clientId: "r", emoji: "👍"), connection: nil)
        } == .invalidField)
    }

    @Test func recallIsTheSendersWithinTwoMinutesAndTheGroupOwnersAnyTime() async throws {
        let core = try CoreFixture()
        let owner = try await core.user("olga"), member = try await core.user("max"), other = try await core.user("nia")
        let group = try await core.groups.create(by: owner, CreateParameters(name: "club")).id
        _ = try await core.groups.join(by: member, ConversationReference(conversationId: group))
        _ = try await core.groups.join(by: other, ConversationReference(conversationId: group))
        let said = try await send(core, from: member, in: group, text: "oops", clientId: "g1")
        let recall = { (user: UserID, id: String) in
            _ = try await core.conversations.actions.recall(
                by: user, MessageActionParameters(conversationId: group, messageId: said.id, clientId: id), connection: nil)
        }
        #expect(await code { try await recall(other, "o1") } == .notSender)
        core.clock.advance(milliseconds: 2 * 60_000 + 1)
        #expect(await code { try await recall(member, "m1") } == .windowClosed)
        // The owner may, long after.
        core.clock.advance(milliseconds: 86_400_000)
        try await recall(owner, "w1")
        let page = try await core.conversations.history(for: other, HistoryParameters(conversationId: group))
        #expect(page.messages.first { $0.id == said.id }?.recalled?.by == owner)
    }

    @Test func reactionsAreOneEmojiBoundedPerUserAndSayWho() async throws {
        var rules = MessagingRules()
        rules.maxReactionsPerUser = 2
        let core = try CoreFixture(rules: rules)
        let (amy, ben, conversation, sent) = try await pair(core)
        let react = { (user: UserID, emoji: String, id: String) in
            try await core.conversations.actions.react(
                by: user, ReactParameters(conversationId: conversation, messageId: sent.id, clientId: id, emoji: emoji), connection: nil)
        }
        _ = try await react(ben, "👍", "r1")
        let second = try await react(amy, "👍", "r2")
        #expect(second.message.reactions == [Reaction(emoji: "👍", users: [ben, amy])])
        _ = try await react(ben, "👨‍👩‍👧", "r3")
        #expect(await code { _ = try await react(ben, "🎉", "r4") } == .invalidField, "a third emoji of ben's")
        #expect(await code { _ = try await react(amy, "ok", "r5") } == .invalidField)
        #expect(await code { _ = try await react(amy, "👍👍", "r6") } == .invalidField)
        #expect(await code { _ = try await react(amy, "1", "r7") } == .invalidField)
        #expect(await code { _ = try await react(amy, "👍", "r8") } == .invalidField, "the same emoji twice")
        let removed = try await core.conversations.actions.unreact(
            by: ben, ReactParameters(conversationId: conversation, messageId: sent.id, clientId: "u1", emoji: "👍"), connection: nil)
        #expect(removed.message.reactions == [Reaction(emoji: "👍", users: [amy]), Reaction(emoji: "👨‍👩‍👧", users: [ben])])
        #expect(await code {
            _ = try await core.conversations.actions.unreact(
                by: ben, ReactParameters(conversationId: conversation, messageId: sent.id, clientId: "u2", emoji: "👍"), connection: nil)
        } == .notFound)
    }

    @Test func aBlockStopsEditsAndReactionsButNotARecall() async throws {
        let core = try CoreFixture()
        let (amy, ben, conversation, sent) = try await pair(core)
        try await core.social.block(amy, by: ben)
        #expect(await code {
            _ = try await core.conversations.actions.react(
                by: amy, ReactParameters(conversationId: conversation, messageId: sent.id, clientId: "r", emoji: "👍"), connection: nil)
        } == .blocked)
        #expect(await code {
            _ = try await core.conversations.actions.edit(
                by: amy, EditParameters(conversationId: conversation, messageId: sent.id, clientId: "e", text: "x"), connection: nil)
        } == .blocked)
        let recalled = try await core.conversations.actions.recall(
            by: amy, MessageActionParameters(conversationId: conversation, messageId: sent.id, clientId: "x"), connection: nil)
        #expect(recalled.message.recalled != nil)
    }

    @Test func deleteForMeHidesForThatUserOnlyAndTellsTheirOtherDevices() async throws {
        let core = try CoreFixture()
        let (amy, ben, conversation, sent) = try await pair(core)
        let laptop = ConnectionToken(9)
        let reference = MessageReference(conversationId: conversation, messageId: sent.id)
        _ = try await core.conversations.actions.hide(by: ben, reference, connection: laptop)
        #expect(core.delivery.take() == [RecordingDelivery.Sent(event: .messageHidden(reference), users: [ben], excluding: laptop)])
        let bens = try await core.conversations.history(for: ben, HistoryParameters(conversationId: conversation))
        let hidden = try #require(bens.messages.first { $0.id == sent.id })
        #expect(hidden.hidden == true && hidden.text == nil, "kept as a place in the sequence, without content")
        let amys = try await core.conversations.history(for: amy, HistoryParameters(conversationId: conversation))
        #expect(amys.messages.first { $0.id == sent.id }?.text == "helo")
        let synced = try await core.conversations.sync(for: ben, SyncParameters(since: [:]))
        #expect(synced.messages.first { $0.id == sent.id }?.hidden == true)
    }

    @Test func mentionsAreMembersAllIsTheOwnersAndTheyAreCountedUntilRead() async throws {
        let core = try CoreFixture()
        let owner = try await core.user("olga"), member = try await core.user("max"), other = try await core.user("nia")
        let outsider = try await core.user("zed")
        let group = try await core.groups.create(by: owner, CreateParameters(name: "club")).id
        _ = try await core.groups.join(by: member, ConversationReference(conversationId: group))
        _ = try await core.groups.join(by: other, ConversationReference(conversationId: group))
        let mention = try await send(core, from: member, in: group, text: "@nia look", clientId: "a", mentions: [other, other])
        #expect(mention.mentions == [other] && mention.mentions(other) && !mention.mentions(owner))
        #expect(await code { _ = try await send(core, from: member, in: group, text: "x", clientId: "b", mentions: [outsider]) } == .invalidField)
        #expect(await code { _ = try await send(core, from: member, in: group, text: "x", clientId: "c", all: true) } == .notOwner)
        let all = try await send(core, from: owner, in: group, text: "@all meeting", clientId: "d", all: true)
        #expect(all.mentions(member) && !all.mentions(owner))
        let nias = try await core.conversations.list(for: other).conversations.first { $0.id == group }
        #expect(nias?.mentions == 2)
        let maxs = try await core.conversations.list(for: member).conversations.first { $0.id == group }
        #expect(maxs?.mentions == 1, "@all, not their own mention of nia")
        _ = try await core.conversations.markRead(for: other, ReadParameters(conversationId: group, seq: mention.seq), connection: nil)
        #expect(try await core.conversations.list(for: other).conversations.first { $0.id == group }?.mentions == 1)
        // Mentions are for groups.
        let (amy, _, conversation, _) = try await pair(core)
        #expect(await code { _ = try await send(core, from: amy, in: conversation, text: "x", clientId: "e", mentions: [amy]) } == .invalidField)
    }

    @Test func aReplyQuotesAnExcerptOfAMessageInTheSameConversation() async throws {
        var rules = MessagingRules()
        rules.replyExcerptCharacters = 5
        let core = try CoreFixture(rules: rules)
        let (amy, ben, conversation, sent) = try await pair(core, text: "a long first line")
        let reply = try await send(core, from: ben, in: conversation, text: "yes", clientId: "r", replyTo: sent.id)
        #expect(reply.replyTo == ReplyPreview(messageId: sent.id, seq: sent.seq, sender: amy, kind: .text, excerpt: "a lon…"))
        let other = try await core.user("cat")
        let elsewhere = try await core.befriend(amy, other)
        #expect(await code { _ = try await send(core, from: amy, in: elsewhere, text: "x", clientId: "q", replyTo: sent.id) } == .notFound)
    }

    @Test func aForwardCopiesIntoAConversationTheUserMayPostTo() async throws {
        let core = try CoreFixture()
        let (amy, ben, conversation, sent) = try await pair(core)
        let cat = try await core.user("cat")
        let withCat = try await core.befriend(ben, cat)
        _ = core.delivery.take()
        let copy = try await core.conversations.actions.forward(
            by: ben, ForwardParameters(conversationId: conversation, messageId: sent.id, to: withCat, clientId: "f1"), connection: nil)
        #expect(copy.conversationId == withCat && copy.text == "helo" && copy.forwarded == true && copy.sender == ben)
        #expect(core.delivery.take().map(\.event) == [.messageNew(copy)])
        let again = try await core.conversations.actions.forward(
            by: ben, ForwardParameters(conversationId: conversation, messageId: sent.id, to: withCat, clientId: "f1"), connection: nil)
        #expect(again == copy)
        #expect(await code {
            _ = try await core.conversations.actions.forward(
                by: amy, ForwardParameters(conversationId: conversation, messageId: sent.id, to: withCat, clientId: "f2"), connection: nil)
        } == .notMember)
    }

    @Test func pinsAreAShortListPerConversation() async throws {
        var rules = MessagingRules()
        rules.maxPins = 1
        let core = try CoreFixture(rules: rules)
        let (amy, ben, conversation, sent) = try await pair(core)
        let second = try await send(core, from: ben, in: conversation, text: "two", clientId: "m2")
        let pinned = try await core.conversations.actions.pin(
            by: ben, MessageActionParameters(conversationId: conversation, messageId: sent.id, clientId: "p1"), connection: nil)
        #expect(pinned.pinned.map(\.message.id) == [sent.id] && pinned.pinned.first?.pinnedBy == ben)
        #expect(pinned.update.event.system?.type == .messagePinned)
        #expect(await code {
            _ = try await core.conversations.actions.pin(
                by: amy, MessageActionParameters(conversationId: conversation, messageId: second.id, clientId: "p2"), connection: nil)
        } == .invalidField)
        let page = try await core.conversations.history(for: amy, HistoryParameters(conversationId: conversation))
        #expect(page.pinned?.map(\.message.id) == [sent.id])
        let unpinned = try await core.conversations.actions.unpin(
            by: amy, MessageActionParameters(conversationId: conversation, messageId: sent.id, clientId: "p3"), connection: nil)
        #expect(unpinned.pinned.isEmpty)
    }

    @Test func anOfflineMemberCatchesUpThroughSyncOnceAndInOrder() async throws {
        let core = try CoreFixture()
        let (amy, ben, conversation, sent) = try await pair(core)
        let known = sent.seq
        _ = try await core.conversations.actions.edit(
            by: amy, EditParameters(conversationId: conversation, messageId: sent.id, clientId: "e", text: "hello"), connection: nil)
        let other = try await send(core, from: amy, in: conversation, text: "second", clientId: "m2")
        _ = try await core.conversations.actions.react(
            by: amy, ReactParameters(conversationId: conversation, messageId: sent.id, clientId: "r", emoji: "😀"), connection: nil)
        _ = try await core.conversations.actions.recall(
            by: amy, MessageActionParameters(conversationId: conversation, messageId: other.id, clientId: "x"), connection: nil)
        let synced = try await core.conversations.sync(for: ben, SyncParameters(since: [conversation.description: known]))
        let seqs = synced.messages.filter { $0.conversationId == conversation }.map(\.seq)
        #expect(seqs == Array((known + 1)...(known + 4)), "every event once, in order")
        #expect(synced.messages.compactMap(\.system?.type) == [.messageEdited, .reactionAdded, .messageRecalled])
        let updated = Dictionary(uniqueKeysWithValues: (synced.updated ?? []).map { ($0.id, $0) })
        #expect(updated.count == 2)
        #expect(updated[sent.id]?.text == "hello" && updated[sent.id]?.reactions == [Reaction(emoji: "😀", users: [amy])])
        #expect(updated[other.id]?.recalled != nil && updated[other.id]?.text == nil)
        // The recalled message itself, in the sync, shows its current state too.
        #expect(synced.messages.first { $0.id == other.id }?.text == nil)
    }
}
