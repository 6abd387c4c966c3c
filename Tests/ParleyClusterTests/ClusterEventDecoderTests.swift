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

@Suite struct ClusterControlEventTests {
    @Test func gatewaySignalsAndSessionEndsCrossNodesWithTheirTypes() throws {
        let forwarded = ForwardedStanza(type: "chat", id: "s-1", from: "ana@parley/phone",
                                        children: "<composing xmlns='http://jabber.org/protocol/chatstates'/>")
        let decoded = ClusterEventDecoder.decode(EventName.forwardedStanza, try JSONEncoder().encode(forwarded))
        #expect(decoded as? ForwardedStanza == forwarded)
        let closed = SignInSessionClosed(sessionId: "abc")
        #expect(ClusterEventDecoder.decode(EventName.signInSessionClosed, try JSONEncoder().encode(closed)) as? SignInSessionClosed == closed)
    }

    @Test func aBeatCarriesItsRoomsAndOlderNoticesStillDecode() throws {
        let beat = ClusterNotice(node: "a", kind: .beat, users: [UserID(rawValue: 1)],
                                 rooms: [RoomOccupants(room: ConversationID(rawValue: 4), users: [UserID(rawValue: 1)])])
        #expect(try JSONDecoder().decode(ClusterNotice.self, from: JSONEncoder().encode(beat)) == beat)
        let old = try JSONDecoder().decode(ClusterNotice.self, from: Data(#"{"node":"b","kind":"online","users":[3]}"#.utf8))
        #expect(old.room == nil && old.rooms == nil && old.users == [UserID(rawValue: 3)])
    }

    @Test func aDigestAndAnAskRoundTrip() throws {
        let digest = ClusterNotice(node: "a", kind: .digest, users: [], digest: ClusterDigest(users: .max - 1, rooms: 7))
        #expect(try JSONDecoder().decode(ClusterNotice.self, from: JSONEncoder().encode(digest)) == digest)
        let ask = ClusterNotice(node: "b", kind: .ask, users: [], peer: "a")
        #expect(try JSONDecoder().decode(ClusterNotice.self, from: JSONEncoder().encode(ask)) == ask)
    }
}
