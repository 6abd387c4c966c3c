import ParleyCluster
import ParleyProtocol
import Testing

@Suite struct ClusterDirectoryTests {
    private let alice = UserID(rawValue: 1)
    private let bob = UserID(rawValue: 2)

    @Test func onlineAndOfflineNoticesLocateUsers() {
        var directory = ClusterDirectory(me: "a")
        #expect(directory.apply(ClusterNotice(node: "b", kind: .online, users: [alice]), now: 1) == [alice])
        #expect(directory.isOnline(alice))
        #expect(directory.nodes(of: [alice, bob]) == ["b": [alice]])
        #expect(directory.apply(ClusterNotice(node: "b", kind: .online, users: [alice]), now: 2) == [])
        #expect(directory.apply(ClusterNotice(node: "b", kind: .offline, users: [alice]), now: 3) == [alice])
        #expect(!directory.isOnline(alice))
        #expect(directory.nodes(of: [alice]).isEmpty)
    }

    @Test func ownNoticesAreIgnored() {
        var directory = ClusterDirectory(me: "a")
        #expect(directory.apply(ClusterNotice(node: "a", kind: .beat, users: [alice]), now: 1) == [])
        #expect(!directory.isOnline(alice))
        #expect(directory.liveNodes.isEmpty)
    }

    @Test func aBeatReplacesTheNodesList() {
        var directory = ClusterDirectory(me: "a")
        _ = directory.apply(ClusterNotice(node: "b", kind: .online, users: [alice]), now: 1)
        #expect(directory.apply(ClusterNotice(node: "b", kind: .beat, users: [bob]), now: 2) == [alice, bob])
        #expect(!directory.isOnline(alice))
        #expect(directory.isOnline(bob))
    }

    @Test func aUserOnTwoNodesStaysOnlineUntilBothLetGo() {
        var directory = ClusterDirectory(me: "a")
        _ = directory.apply(ClusterNotice(node: "b", kind: .online, users: [alice]), now: 1)
        _ = directory.apply(ClusterNotice(node: "c", kind: .online, users: [alice]), now: 1)
        #expect(directory.nodes(of: [alice]).keys.sorted() == ["b", "c"])
        _ = directory.apply(ClusterNotice(node: "b", kind: .bye, users: []), now: 2)
        #expect(directory.isOnline(alice))
        #expect(directory.liveNodes == ["c"])
    }

    @Test func silentNodesExpireAndTheSmallestLiveNodeActs() {
        var directory = ClusterDirectory(me: "b")
        _ = directory.apply(ClusterNotice(node: "a", kind: .beat, users: [alice]), now: 10)
        _ = directory.apply(ClusterNotice(node: "c", kind: .beat, users: [bob]), now: 50)
        #expect(!directory.actsForCluster)
        let expired = directory.expire(before: 20)
        #expect(expired.nodes == ["a"])
        #expect(expired.users == [alice])
        #expect(!directory.isOnline(alice))
        #expect(directory.isOnline(bob))
        #expect(directory.liveNodes == ["c"])
        #expect(directory.actsForCluster)
    }
}
