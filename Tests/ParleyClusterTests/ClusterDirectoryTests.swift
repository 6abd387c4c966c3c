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

/// Quiet heartbeats carry a digest of a node's lists; the directory keeps the digest of its
/// copy current, so a missed notice shows as a difference without going over the lists.
@Suite struct ClusterDigestTests {
    private let alice = UserID(rawValue: 1)
    private let bob = UserID(rawValue: 2)
    private let carol = UserID(rawValue: 3)
    private let room = ConversationID(rawValue: 9)

    private func usersDigest(_ users: [UserID]) -> UInt64 { ClusterDigest(users: users, rooms: [:]).users }

    @Test func theCopysDigestFollowsEveryNotice() {
        var directory = ClusterDirectory(me: "a")
        #expect(directory.usersDigest(of: "b") == usersDigest([]))
        _ = directory.apply(ClusterNotice(node: "b", kind: .beat, users: [alice, bob]), now: 1)
        #expect(directory.usersDigest(of: "b") == usersDigest([bob, alice]))
        _ = directory.apply(ClusterNotice(node: "b", kind: .online, users: [carol, alice]), now: 2)
        #expect(directory.usersDigest(of: "b") == usersDigest([alice, bob, carol]))
        _ = directory.apply(ClusterNotice(node: "b", kind: .offline, users: [alice, alice]), now: 3)
        #expect(directory.usersDigest(of: "b") == usersDigest([bob, carol]))
        _ = directory.apply(ClusterNotice(node: "b", kind: .bye, users: []), now: 4)
        #expect(directory.usersDigest(of: "b") == usersDigest([]))
    }

    @Test func aMissedNoticeShowsAsADifferentDigest() {
        var directory = ClusterDirectory(me: "a")
        _ = directory.apply(ClusterNotice(node: "b", kind: .beat, users: [alice]), now: 1)
        // Node b's online notice for bob was lost; its next heartbeat gives its real digest.
        let heard = ClusterDigest(users: [alice, bob], rooms: [:])
        #expect(directory.apply(ClusterNotice(node: "b", kind: .digest, users: [], digest: heard), now: 2) == [])
        #expect(directory.usersDigest(of: "b") != heard.users)
        #expect(!directory.isOnline(bob), "a digest changes nothing by itself; the full beat asked for does")
        _ = directory.apply(ClusterNotice(node: "b", kind: .beat, users: [alice, bob]), now: 3)
        #expect(directory.usersDigest(of: "b") == heard.users)
    }

    @Test func digestsAndAsksKeepANodeAliveAndSilenceStillExpiresIt() {
        var directory = ClusterDirectory(me: "a")
        _ = directory.apply(ClusterNotice(node: "b", kind: .beat, users: [alice]), now: 10)
        _ = directory.apply(ClusterNotice(node: "c", kind: .beat, users: [bob]), now: 10)
        _ = directory.apply(ClusterNotice(node: "b", kind: .digest, users: [], digest: ClusterDigest(users: [alice], rooms: [:])), now: 30)
        _ = directory.apply(ClusterNotice(node: "c", kind: .ask, users: [], peer: "b"), now: 15)
        let expired = directory.expire(before: 20)
        #expect(expired.nodes == ["c"])
        #expect(expired.users == [bob])
        #expect(directory.isOnline(alice))
        #expect(directory.liveNodes == ["b"])
    }

    @Test func theDigestIsOfTheSetsNotTheirOrderAndRoomsAreApart() {
        let one = ClusterDigest(users: [alice, bob], rooms: [room: [alice, bob]])
        let other = ClusterDigest(users: [bob, alice], rooms: [room: [bob, alice]])
        #expect(one == other)
        #expect(ClusterDigest(users: [alice], rooms: [:]) != ClusterDigest(users: [bob], rooms: [:]))
        #expect(ClusterDigest.rooms([room: [alice]]) != ClusterDigest.rooms([ConversationID(rawValue: 10): [alice]]))
        #expect(ClusterDigest.rooms([room: [alice]]) != ClusterDigest(users: [alice], rooms: [:]).users)
        #expect(ClusterDigest(users: [UserID](), rooms: [:]) == ClusterDigest(users: 0, rooms: 0))
    }
}
