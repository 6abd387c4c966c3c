import CoreTestSupport
import Foundation
import ParleyCore
import ParleyProtocol
import Testing

/// Voice messages: what a send must carry (waveform, a length that agrees with the
/// recording), and the listened marks (first play per recipient, an event in the sequence,
/// read-receipt privacy), decided by the core over a real SQLite store.
@Suite struct VoiceMessageTests {
    private static let waveform = (0..<64).map { ($0 * 7) % 32 }

    /// Two friends, and a 12-second recording uploaded by the first.
    private func pair(_ core: CoreFixture) async throws -> (UserID, UserID, ConversationID) {
        let amy = try await core.user("amy"), ben = try await core.user("ben")
        let conversation = try await core.befriend(amy, ben)
        try await record(core, "rec", by: amy, milliseconds: 12_000)
        _ = core.delivery.take()
        return (amy, ben, conversation)
    }

    private func record(_ core: CoreFixture, _ id: String, by owner: UserID, milliseconds: Int, type: MediaType = .audio(.webm)) async throws {
        try await core.store.write { writer in
            try writer.insertMedia(StoredMedia(id: id, ownerID: owner, type: type, durationMs: milliseconds, width: 0, height: 0,
                                               size: 4_000, createdAt: 1))
        }
    }

    private func sendVoice(_ core: CoreFixture, from user: UserID, in conversation: ConversationID, media: String = "rec",
                           durationMs: Int? = 12_000, waveform: [Int]? = waveform, clientId: String = "v1") async throws -> Message {
        try await core.conversations.send(from: user, SendParameters(conversationId: conversation, clientId: clientId, kind: .voice,
                                                                     mediaId: media, durationMs: durationMs, waveform: waveform),
                                          connection: nil).message
    }

    private func listen(_ core: CoreFixture, _ user: UserID, _ message: Message, clientId: String) async throws -> ListenResult {
        try await core.conversations.actions.listen(
            by: user, MessageActionParameters(conversationId: message.conversationId, messageId: message.id, clientId: clientId),
            connection: nil)
    }

    private func failure(_ body: () async throws -> Void) async -> (ErrorCode, String?)? {
        do {
            try await body()
            return nil
        } catch let error as ProtocolError {
            return (error.code, error.field)
        } catch {
            return nil
        }
    }

    @Test func aVoiceMessageCarriesItsRecordingLengthAndWaveform() async throws {
        let core = try CoreFixture()
        let (amy, ben, conversation) = try await pair(core)
        let sent = try await sendVoice(core, from: amy, in: conversation, durationMs: 12_300)
        #expect(sent.kind == .voice && sent.text == nil)
        #expect(sent.voice == VoiceAttachment(mediaId: "rec", url: "/v1/media/rec", type: "audio/webm", durationMs: 12_300,
                                              waveform: Self.waveform))
        #expect(core.delivery.take().contains { $0.event == .messageNew(sent) && $0.users.contains(ben) })
        let page = try await core.conversations.history(for: ben, HistoryParameters(conversationId: conversation))
        #expect(page.messages.last == sent)
    }

    @Test func theWaveformAndLengthAreChecked() async throws {
        let core = try CoreFixture()
        let (amy, _, conversation) = try await pair(core)
        let send = { (duration: Int?, waveform: [Int]?) in
            _ = try await self.sendVoice(core, from: amy, in: conversation, durationMs: duration, waveform: waveform, clientId: UUID().uuidString)
        }
        #expect(await failure { try await send(12_000, nil) }! == (.missingField, "waveform"))
        #expect(await failure { try await send(12_000, Array(Self.waveform.prefix(63))) }! == (.invalidField, "waveform"))
        #expect(await failure { try await send(12_000, Self.waveform + [0]) }! == (.invalidField, "waveform"))
        #expect(await failure { try await send(12_000, [32] + Self.waveform.dropFirst()) }! == (.invalidField, "waveform"))
        #expect(await failure { try await send(12_000, [-1] + Self.waveform.dropFirst()) }! == (.invalidField, "waveform"))
        #expect(await failure { try await send(nil, Self.waveform) }! == (.missingField, "durationMs"))
        #expect(await failure { try await send(0, Self.waveform) }! == (.invalidField, "durationMs"))
        // The recording lasts 12 s: within the tolerance (max of 500 ms and 10 %) passes.
        #expect(await failure { try await send(13_200, Self.waveform) } == nil)
        #expect(await failure { try await send(10_800, Self.waveform) } == nil)
        #expect(await failure { try await send(13_300, Self.waveform) }! == (.invalidField, "durationMs"))
        #expect(await failure { try await send(2_000, Self.waveform) }! == (.invalidField, "durationMs"))
    }

    @Test func onlyTheSendersOwnRecordingIsAVoiceMessage() async throws {
        let core = try CoreFixture()
        let (amy, ben, conversation) = try await pair(core)
        try await record(core, "pic", by: amy, milliseconds: 0, type: .image(.png))
        #expect(await failure { _ = try await self.sendVoice(core, from: amy, in: conversation, media: "pic") }! == (.invalidField, "mediaId"))
        // Another's recording, or none.
        #expect(await failure { _ = try await self.sendVoice(core, from: ben, in: conversation) }! == (.invalidField, "mediaId"))
        #expect(await failure { _ = try await self.sendVoice(core, from: amy, in: conversation, media: "nope") }! == (.invalidField, "mediaId"))
        // A recording is not an image either.
        #expect(await failure {
            _ = try await core.conversations.send(from: amy, SendParameters(conversationId: conversation, clientId: "i", kind: .image,
                                                                            mediaId: "rec"), connection: nil)
        }! == (.invalidField, "mediaId"))
    }

    @Test func theFirstPlayIsAnEventTheSenderHearsAndSyncCarries() async throws {
        let core = try CoreFixture()
        let (amy, ben, conversation) = try await pair(core)
        let sent = try await sendVoice(core, from: amy, in: conversation)
        _ = core.delivery.take()
        let heard = try await listen(core, ben, sent, clientId: "l1")
        let event = try #require(heard.event)
        #expect(event.seq == sent.seq + 1 && event.system?.type == .messageListened && event.system?.messageId == sent.id)
        #expect(heard.message.listenedBy == [ben])
        let told = core.delivery.take()
        #expect(told.map(\.event) == [.messageUpdated(MessageUpdate(event: event, message: heard.message))])
        #expect(Set(told.first?.users ?? []) == [amy, ben])
        // A retry is answered from the store; another play changes nothing.
        #expect(try await listen(core, ben, sent, clientId: "l1") == heard)
        let again = try await listen(core, ben, sent, clientId: "l2")
        #expect(again.event == nil && again.message.listenedBy == [ben])
        // The sender's own play is no mark.
        #expect(try await listen(core, amy, sent, clientId: "a1").event == nil)
        #expect(core.delivery.take().isEmpty)
        // Sync from before the play brings the event and the message as it is now.
        let sync = try await core.conversations.sync(for: amy, SyncParameters(since: [conversation.description: sent.seq]))
        #expect(sync.messages.contains(event))
        #expect(sync.updated?.first { $0.id == sent.id }?.listenedBy == [ben])
        let page = try await core.conversations.history(for: amy, HistoryParameters(conversationId: conversation))
        #expect(page.messages.last?.listenedBy == [ben])
    }

    @Test func onlyVoiceMessagesAreListenedTo() async throws {
        let core = try CoreFixture()
        let (amy, ben, conversation) = try await pair(core)
        let text = try await core.conversations.send(from: amy, SendParameters(conversationId: conversation, clientId: "t", kind: .text,
                                                                               text: "hi"), connection: nil).message
        #expect(await failure { _ = try await self.listen(core, ben, text, clientId: "x") }! == (.invalidField, "messageId"))
        let cat = try await core.user("cat")
        let sent = try await sendVoice(core, from: amy, in: conversation)
        #expect(await failure { _ = try await self.listen(core, cat, sent, clientId: "y") }?.0 == .notMember)
    }

    @Test func noMarkIsStoredWhenEitherOfThePairHidesReadReceipts() async throws {
        let core = try CoreFixture()
        let (amy, ben, conversation) = try await pair(core)
        let sent = try await sendVoice(core, from: amy, in: conversation)
        _ = try await core.conversations.setPrivacy(of: amy, PrivacySettings(readReceipts: false))
        _ = core.delivery.take()
        let quiet = try await listen(core, ben, sent, clientId: "l1")
        #expect(quiet.event == nil && quiet.message.listenedBy == nil)
        #expect(core.delivery.take().isEmpty)
        _ = try await core.conversations.setPrivacy(of: amy, PrivacySettings())
        _ = try await core.conversations.setPrivacy(of: ben, PrivacySettings(readReceipts: false))
        #expect(try await listen(core, ben, sent, clientId: "l2").event == nil)
        _ = try await core.conversations.setPrivacy(of: ben, PrivacySettings())
        #expect(try await listen(core, ben, sent, clientId: "l3").message.listenedBy == [ben])
    }

    @Test func aGroupCountsItsListenersAndARecallErasesThem() async throws {
        let core = try CoreFixture()
        let owner = try await core.user("own")
        let group = try await core.groups.create(by: owner, CreateParameters(name: "club"))
        var members: [UserID] = []
        for index in 0..<3 {
            let member = try await core.user("mem\(index)")
            _ = try await core.groups.join(by: member, ConversationReference(conversationId: group.id))
            members.append(member)
        }
        try await record(core, "rec", by: owner, milliseconds: 5_000)
        let sent = try await sendVoice(core, from: owner, in: group.id, durationMs: 5_000)
        // A member who hides read receipts plays without a mark; the others count.
        _ = try await core.conversations.setPrivacy(of: members[2], PrivacySettings(readReceipts: false))
        for (index, member) in members.enumerated() { _ = try await listen(core, member, sent, clientId: "l\(index)") }
        let page = try await core.conversations.history(for: owner, HistoryParameters(conversationId: group.id))
        #expect(page.messages.last { $0.id == sent.id }?.listenedBy == [members[0], members[1]])
        let recalled = try await core.conversations.actions.recall(
            by: owner, MessageActionParameters(conversationId: group.id, messageId: sent.id, clientId: "r"), connection: nil)
        #expect(recalled.message.voice == nil && recalled.message.listenedBy == nil)
    }
}
