import Foundation
@testable import ParleyCluster
import ParleyCore
import ParleyProtocol
import Testing

@Suite struct ClusterEventDecoderTests {
    @Test func aForwardedMessageDecodesToTheSameMessage() throws {
        let message = Message(id: "41", conversationId: ConversationID(rawValue: 7), seq: 3, sender: UserID(rawValue: 2),
                              clientId: "c-1", kind: .text, text: "hello 🌸", createdAt: 1_700_000_000_000)
        let decoded = ClusterEventDecoder.decode(EventName.messageNew, try JSONEncoder().encode(message))
        #expect(decoded as? Message == message)
    }

    @Test func presenceAndReferencesKeepTheirTypes() throws {
        let presence = Presence(userId: UserID(rawValue: 5), online: false, at: 12)
        #expect(ClusterEventDecoder.decode(EventName.presence, try JSONEncoder().encode(presence)) as? Presence == presence)
        let reference = UserReference(userId: UserID(rawValue: 9))
        let decoded = ClusterEventDecoder.decode(EventName.friendRemoved, try JSONEncoder().encode(reference)) as? UserReference
        #expect(decoded?.userId == reference.userId)
    }

    @Test func unknownEventsAndWrongPayloadsAreRefused() throws {
        #expect(ClusterEventDecoder.decode("no.such.event", Data("{}".utf8)) == nil)
        let presence = Presence(userId: UserID(rawValue: 5), online: true, at: 1)
        #expect(ClusterEventDecoder.decode(EventName.messageNew, try JSONEncoder().encode(presence)) == nil)
        #expect(ClusterEventDecoder.decode(EventName.presence, Data("not json".utf8)) == nil)
    }
}
