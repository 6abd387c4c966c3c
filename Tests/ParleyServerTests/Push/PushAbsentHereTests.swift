import ParleyCore
import ParleyProtocol
import Testing
@testable import ParleyServer

/// Who is away here for a new message's pushes: with the delivery's finding (the members it
/// found no connection for) and without it, the same members in the same order.
@Suite struct PushAbsentHereTests {
    /// Mei with one connection, Bob with two; Ana and Zoe with none.
    struct Scene {
        let hub = ConnectionHub()
        let mei = UserID(rawValue: 1), bob = UserID(rawValue: 2), ana = UserID(rawValue: 3), zoe = UserID(rawValue: 4)
        var members: [UserID] { [zoe, mei, bob, ana] }

        init() {
            _ = hub.add(ConnectionHubTests.Receiver(1), for: mei)
            _ = hub.add(ConnectionHubTests.Receiver(2), for: bob)
            _ = hub.add(ConnectionHubTests.Receiver(3), for: bob)
        }

        func absentHere(except: UserID?, withFinding: Bool, inactive: Set<ConnectionToken> = []) -> [UserID] {
            let finding = withFinding ? hub.fanOut(.presence(Presence(userId: mei, online: true, at: 1)), to: members,
                                                   excluding: nil).unconnectedHere : nil
            return PushDispatcher.absentHere(among: members, except: except, unconnectedHere: finding, inactive: inactive, hub: hub)
        }
    }

    @Test func theDeliverysFindingGivesTheSameMembersAsTheHub() {
        let scene = Scene()
        #expect(scene.absentHere(except: nil, withFinding: true) == [scene.zoe, scene.ana])
        #expect(scene.absentHere(except: nil, withFinding: false) == [scene.zoe, scene.ana])
        #expect(scene.absentHere(except: scene.zoe, withFinding: true) == [scene.ana], "the author is never pushed")
        #expect(scene.absentHere(except: scene.zoe, withFinding: false) == [scene.ana])
    }

    /// A connection in the background makes its user away though connected: the finding does
    /// not know that, so the hub is asked as before.
    @Test func aConnectionInTheBackgroundIsStillLookedUp() {
        let scene = Scene()
        let inactive: Set<ConnectionToken> = [ConnectionToken(1), ConnectionToken(2)]
        #expect(scene.absentHere(except: nil, withFinding: true, inactive: inactive) == [scene.zoe, scene.mei, scene.ana])
        #expect(scene.absentHere(except: nil, withFinding: false, inactive: inactive) == [scene.zoe, scene.mei, scene.ana])
    }
}
