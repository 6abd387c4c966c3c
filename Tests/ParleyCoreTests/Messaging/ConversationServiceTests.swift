import CoreTestSupport
import ParleyCore
import ParleyProtocol
import Testing

/// Who hears of a message and of a read marker, decided by the core alone.
@Suite struct ConversationServiceTests {
    @Test func aMessageGoesToBothFriendsButTheSendingConnection() async throws {
        let core = try CoreFixture()
        let amy = try await core.user("amy"), ben = try await core.user("ben")
        let conversation = try await core.befriend(amy, ben)
        _ = core.delivery.take()
        let connection = ConnectionToken(7)
        let sent = try await core.conversations.send(from: amy, SendParameters(conversationId: conversation, clientId: "c1", kind: .text, text: "hi"),
                                                     connection: connection).message
        #expect(sent.seq == 2, "after the friend_added notice")
        let deliveries = core.delivery.take()
        #expect(deliveries.count == 1)
        #expect(deliveries.first?.event == .messageNew(sent))
        #expect(Set(deliveries.first?.users ?? []) == [amy, ben])
        #expect(deliveries.first?.excluding == connection)
        // A retry is answered with the same message and announced to no one again.
        let retried = try await core.conversations.send(from: amy, SendParameters(conversationId: conversation, clientId: "c1", kind: .text, text: "hi"),
                                                        connection: connection).message
        #expect(retried == sent)
        #expect(core.delivery.take().isEmpty)
    }

    @Test func strangersCannotPostAndNothingIsAnnounced() async throws {
        let core = try CoreFixture()
        let amy = try await core.user("amy"), ben = try await core.user("ben"), cat = try await core.user("cat")
        let conversation = try await core.befriend(amy, ben)
        _ = core.delivery.take()
        await #expect(throws: ProtocolError.self) {
            _ = try await core.conversations.send(from: cat, SendParameters(conversationId: conversation, clientId: "x", kind: .text, text: "hey"),
                                                  connection: nil)
        }
        #expect(core.delivery.take().isEmpty)
    }

    @Test func aReadMarkerIsToldToTheReadersOtherConnectionsOnly() async throws {
        let core = try CoreFixture()
        let amy = try await core.user("amy"), ben = try await core.user("ben")
        let conversation = try await core.befriend(amy, ben)
        let sent = try await core.conversations.send(from: amy, SendParameters(conversationId: conversation, clientId: "c", kind: .text, text: "x"),
                                                     connection: nil).message
        _ = core.delivery.take()
        let phone = ConnectionToken(3)
        let state = try await core.conversations.markRead(for: ben, ReadParameters(conversationId: conversation, seq: sent.seq), connection: phone)
        #expect(state.readSeq == sent.seq && state.unread == 0)
        // The reader's own state goes to their other connections only; the sender hears a
        // receipt (who read up to where), never the reader's counts.
        #expect(core.delivery.take() == [
            RecordingDelivery.Sent(event: .conversationRead(state), users: [ben], excluding: phone),
            RecordingDelivery.Sent(event: .conversationReceipt(ReceiptState(conversationId: conversation, userId: ben, readSeq: sent.seq,
                                                                            deliveredSeq: sent.seq)),
                                   users: [amy], excluding: nil),
        ])
    }

    @Test func theOneToOneConversationIsFoundWithoutAnnouncingAnything() async throws {
        let core = try CoreFixture()
        let amy = try await core.user("amy"), ben = try await core.user("ben"), cat = try await core.user("cat")
        await #expect(throws: ProtocolError.self) { _ = try await core.conversations.find(for: amy, with: ben) }
        let conversation = try await core.befriend(amy, ben)
        _ = core.delivery.take()
        #expect(try await core.conversations.find(for: ben, with: amy).conversationId == conversation)
        await #expect(throws: ProtocolError.self) { _ = try await core.conversations.find(for: cat, with: amy) }
        #expect(core.delivery.take().isEmpty)
    }
}
