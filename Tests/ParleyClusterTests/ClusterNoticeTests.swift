import Foundation
@testable import ParleyCluster
import ParleyCore
import ParleyProtocol
import Testing

/// What nodes hand each other: event headers, notices and digests keep their shape on the wire.
@Suite struct ClusterControlEventTests {
    @Test func forwardedEventsAreNamedApartFromClientEvents() throws {
        let header = ClusterEventHeader(node: "a", event: ClusterEventHeader.forwardedStanza, users: [UserID(rawValue: 2)])
        let decoded = try JSONDecoder().decode(ClusterEventHeader.self, from: JSONEncoder().encode(header))
        #expect(decoded.event == "xmpp.forward" && decoded.users == [UserID(rawValue: 2)])
        // Neither control name is a client event: a node could never mistake one for the other.
        for name in [ClusterEventHeader.forwardedStanza, ClusterEventHeader.sessionClosed] {
            #expect(try ServerEvent.decode(name: name, data: Data("{}".utf8)) == nil)
        }
        let closed = try JSONDecoder().decode(ClosedSession.self, from: JSONEncoder().encode(ClosedSession(sessionId: "abc")))
        #expect(closed.sessionId == "abc")
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
