import CoreTestSupport
import ParleyCore
import ParleyProtocol
import ParleySync
import Testing

/// `ConversationService.send`'s form with no task (the native 1:1 hot path): the commit's
/// outcome comes back through the caller's hop, and only there is anything announced and
/// answered; the same guarantees as the async form.
@Suite struct ConversationServiceCompletionTests {
    /// Holds what a send hands back to its caller, so the test runs it when it chooses.
    final class HeldHop: CompletionHop {
        let handed: AsyncStream<@Sendable () -> Void>
        private let continuation: AsyncStream<@Sendable () -> Void>.Continuation

        init() {
            (handed, continuation) = AsyncStream.makeStream(of: (@Sendable () -> Void).self)
        }

        func hop(_ work: @escaping @Sendable () -> Void) {
            continuation.yield(work)
        }

        /// Waits for the next work handed back, and runs it.
        func runNext() async {
            for await work in handed {
                work()
                return
            }
        }
    }

    /// Every answer a send gave, in order.
    final class Answers: Sendable {
        private let results = PThreadMutex<[Result<SentMessage, ProtocolError>]>([])
        func record(_ result: Result<SentMessage, ProtocolError>) { results.withLock { $0.append(result) } }
        var all: [Result<SentMessage, ProtocolError>] { results.withLock { $0 } }
    }

    static func text(_ conversation: ConversationID, _ clientID: String, _ text: String = "hi") -> SendParameters {
        SendParameters(conversationId: conversation, clientId: clientID, kind: .text, text: text)
    }

    @Test func theMessageIsAnnouncedAndAnsweredOnlyAfterTheHopOnce() async throws {
        let core = try CoreFixture()
        let amy = try await core.user("amy"), ben = try await core.user("ben")
        let conversation = try await core.befriend(amy, ben)
        core.delivery.setOnline(ben)
        _ = core.delivery.take()
        let hop = HeldHop(), answers = Answers(), connection = ConnectionToken(7)
        core.conversations.send(from: amy, Self.text(conversation, "c1"), connection: connection, hop: hop, completion: { answers.record($0) })
        // Nothing told before the caller's thread takes the outcome.
        #expect(answers.all.isEmpty)
        #expect(core.delivery.take().isEmpty)
        await hop.runNext()
        let sent = try #require(try answers.all.first?.get()).message
        #expect(answers.all.count == 1)
        #expect(sent.text == "hi" && sent.sender == amy && sent.seq == 2)
        // The message to both but the sending connection, then the delivered receipt to amy
        // (ben is online: his marker moved in the same write).
        let deliveries = core.delivery.take()
        #expect(deliveries.count == 2)
        #expect(deliveries.first?.event == .messageNew(sent))
        #expect(Set(deliveries.first?.users ?? []) == [amy, ben])
        #expect(deliveries.first?.excluding == connection)
        #expect(deliveries.last == RecordingDelivery.Sent(
            event: .conversationReceipt(ReceiptState(conversationId: conversation, userId: ben, deliveredSeq: sent.seq)),
            users: [amy], excluding: nil))

        // A retry is answered with the same message and announced to no one again.
        let retry = Answers()
        core.conversations.send(from: amy, Self.text(conversation, "c1"), connection: connection, hop: hop, completion: { retry.record($0) })
        await hop.runNext()
        #expect(try retry.all.first?.get().message == sent)
        #expect(retry.all.count == 1)
        #expect(core.delivery.take().isEmpty)
    }

    @Test func refusalsCarryTheSameCodesAsTheAsyncForm() async throws {
        let core = try CoreFixture()
        let amy = try await core.user("amy"), ben = try await core.user("ben"), cat = try await core.user("cat")
        let conversation = try await core.befriend(amy, ben)
        _ = core.delivery.take()
        let hop = HeldHop()

        // Found before the write: answered at once, on the caller's thread, with no hop.
        let blank = Answers()
        core.conversations.send(from: amy, Self.text(conversation, "c2", "   "), connection: nil, hop: hop, completion: { blank.record($0) })
        #expect(blank.all.count == 1)
        guard case .failure(let blankError)? = blank.all.first else {
            Issue.record("a blank text was not refused")
            return
        }
        #expect(blankError.code == .invalidField && blankError.field == "text")

        // Found in the write (a stranger may not post): after the hop, as the async form says.
        let stranger = Answers()
        core.conversations.send(from: cat, Self.text(conversation, "x"), connection: nil, hop: hop, completion: { stranger.record($0) })
        await hop.runNext()
        var expected: ProtocolError?
        do {
            _ = try await core.conversations.send(from: cat, Self.text(conversation, "y"), connection: nil)
        } catch {
            expected = error
        }
        guard case .failure(let refusal)? = stranger.all.first, let expected else {
            Issue.record("a stranger's send was not refused")
            return
        }
        #expect(stranger.all.count == 1)
        #expect(refusal.code == expected.code)
        #expect(core.delivery.take().isEmpty)
    }
}
