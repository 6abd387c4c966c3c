import CoreTestSupport
import Foundation
import ParleyCore
import ParleyProtocol
import Testing

/// A mute or unmute reaches the user's other connections (`conversation.muted`), not the one
/// that asked and nobody else.
@Suite struct MuteEventsTests {
    @Test func muteAndUnmuteAreToldToTheUsersOtherConnections() async throws {
        let core = try CoreFixture()
        let amy = try await core.user("amy"), ben = try await core.user("ben")
        let conversation = try await core.befriend(amy, ben)
        _ = core.delivery.take()
        let asking = ConnectionToken(7)

        let mute = try await core.conversations.mute(for: amy, MuteParameters(conversationId: conversation, until: core.clock.now + 60_000,
                                                                              mentionsOnly: true), connection: asking)
        #expect(core.delivery.take() == [RecordingDelivery.Sent(
            event: .conversationMuted(MuteState(conversationId: conversation, mute: mute)), users: [amy], excluding: asking)])
        #expect(mute == ConversationMute(until: core.clock.now + 60_000, mentionsOnly: true))

        try await core.conversations.unmute(for: amy, ConversationReference(conversationId: conversation), connection: asking)
        #expect(core.delivery.take() == [RecordingDelivery.Sent(
            event: .conversationMuted(MuteState(conversationId: conversation)), users: [amy], excluding: asking)])

        // A refused mute (in the past) tells no one.
        await #expect(throws: ProtocolError.self) {
            try await core.conversations.mute(for: amy, MuteParameters(conversationId: conversation, until: 1), connection: asking)
        }
        #expect(core.delivery.take().isEmpty)
    }

    @Test func theEventRoundTripsOnTheWire() throws {
        let state = MuteState(conversationId: ConversationID(rawValue: 5), mute: ConversationMute(until: 9, mentionsOnly: false))
        let event = ServerEvent.conversationMuted(state)
        #expect(event.name == "conversation.muted")
        let data = try #require(event.dataJSON())
        #expect(try ServerEvent.decode(name: event.name, data: Data(data)) == event)
        let unmuted = ServerEvent.conversationMuted(MuteState(conversationId: ConversationID(rawValue: 5)))
        #expect(try ServerEvent.decode(name: unmuted.name, data: Data(try #require(unmuted.dataJSON()))) == unmuted)
    }
}
