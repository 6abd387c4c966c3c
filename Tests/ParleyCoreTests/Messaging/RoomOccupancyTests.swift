@testable import ParleyCore
import ParleyProtocol
import ParleySync
import Testing

@Suite struct RoomOccupancyTests {
    let lobby = ConversationID(rawValue: 1)
    let attic = ConversationID(rawValue: 2)
    let ana = UserID(rawValue: 10), ben = UserID(rawValue: 11), cy = UserID(rawValue: 12)

    /// An occupancy whose published changes are collected.
    func replicated() -> (RoomOccupancy, PThreadMutex<[RoomOccupancy.Change]>) {
        let rooms = RoomOccupancy()
        let published = PThreadMutex<[RoomOccupancy.Change]>([])
        rooms.replicate { change in published.withLock { $0.append(change) } }
        return (rooms, published)
    }

    @Test func occupantsAreTheUnionOfEveryServer() {
        let (rooms, published) = replicated()
        #expect(rooms.enter(lobby, ana))
        rooms.apply(.entered(lobby, ben), from: "b")
        rooms.replace([lobby: [cy], attic: [cy]], of: "c")
        #expect(rooms.occupants(of: lobby) == [ana, ben, cy])
        #expect(rooms.count(of: lobby) == 3)
        #expect(rooms.rooms(of: cy) == [lobby, attic])
        #expect(!rooms.enter(lobby, ben), "in already through another server: no second entry")
        #expect(published.withLock { $0 } == [.entered(lobby, ana)], "only this server's own changes are published")
        #expect(rooms.localTable == [lobby: [ana]])
    }

    @Test func aLeaveRemovesTheUserOnEveryServer() {
        let (rooms, published) = replicated()
        rooms.apply(.entered(lobby, ben), from: "b")
        rooms.apply(.entered(lobby, ben), from: "c")
        #expect(rooms.leave(lobby, ben))
        #expect(!rooms.contains(lobby, ben))
        #expect(!rooms.leave(lobby, ben), "a second leave is no change")
        #expect(published.withLock { $0 } == [.left(lobby, ben)])
        #expect(rooms.enter(lobby, ana))
        rooms.apply(.left(lobby, ana), from: "b")
        #expect(rooms.occupants(of: lobby).isEmpty, "another server's leave removes this server's entry too")
    }

    @Test func aBeatReplacesWhatWasKnownOfItsServer() {
        let rooms = RoomOccupancy()
        rooms.apply(.entered(lobby, ana), from: "b")
        rooms.replace([attic: [ben]], of: "b")
        #expect(rooms.occupants(of: lobby).isEmpty)
        #expect(rooms.occupants(of: attic) == [ben])
        rooms.replace([:], of: "b")
        #expect(rooms.everyOccupant.isEmpty)
    }

    @Test func aLostServerReturnsOnlyTheEntriesNoOtherServerHolds() {
        let (rooms, published) = replicated()
        rooms.replace([lobby: [ana, ben], attic: [ana]], of: "b")
        rooms.apply(.entered(attic, ana), from: "c")
        let orphaned = rooms.forget("b")
        #expect(orphaned.map(\.room) == [lobby, lobby])
        #expect(orphaned.map(\.user) == [ana, ben])
        #expect(rooms.occupants(of: lobby).isEmpty)
        #expect(rooms.occupants(of: attic) == [ana])
        #expect(rooms.forget("b").isEmpty, "forgotten once")
        rooms.adopt(lobby, ana)
        #expect(rooms.localTable == [lobby: [ana]])
        #expect(published.withLock { $0 } == [.entered(lobby, ana)], "an adopted entry is told to the others")
    }
}
