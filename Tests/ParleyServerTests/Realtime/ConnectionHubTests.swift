import ParleyCore
import ParleyProtocol
import ParleySync
import Testing
@testable import ParleyServer

/// The hub as the gateways' registry: typed receivers (XMPP sessions) count for online state
/// and get the event itself.
@Suite struct ConnectionHubTests {
    final class Receiver: EventReceiver {
        let token: ConnectionToken
        let received = PThreadMutex<[ServerEvent]>([])
        let forwarded = PThreadMutex<[ForwardedStanza]>([])

        init(_ token: UInt64) { self.token = ConnectionToken(token) }

        func receive(_ event: ServerEvent) {
            received.withLock { $0.append(event) }
        }

        func receive(forwarded stanza: ForwardedStanza) {
            forwarded.withLock { $0.append(stanza) }
        }
    }

    /// Mei with a phone and a laptop, Bob with a phone, on one hub.
    struct Scene {
        let hub = ConnectionHub()
        let mei = UserID(rawValue: 1), bob = UserID(rawValue: 2)
        let meiPhone = Receiver(1), meiLaptop = Receiver(2), bobPhone = Receiver(3)

        init() {
            _ = hub.add(meiPhone, for: mei)
            _ = hub.add(meiLaptop, for: mei)
            _ = hub.add(bobPhone, for: bob)
        }
    }

    @Test func typedReceiversCountForOnlineStateFirstAndLast() {
        let hub = ConnectionHub()
        let mei = UserID(rawValue: 1)
        let phone = Receiver(1), laptop = Receiver(2)
        #expect(!hub.isOnline(mei))
        #expect(hub.add(phone, for: mei))
        #expect(!hub.add(laptop, for: mei))
        #expect(hub.isOnline(mei))
        // Both are hers: an event for her reaches each.
        #expect(hub.deliver(.presence(Presence(userId: mei, online: true, at: 1)), to: [mei], excluding: nil) == nil,
                "no native connection: nothing was encoded")
        #expect(phone.received.withLock { $0.count } == 1 && laptop.received.withLock { $0.count } == 1)
        #expect(!hub.remove(phone, for: mei))
        #expect(!hub.remove(phone, for: mei), "removing twice is not a second going-offline")
        #expect(hub.remove(laptop, for: mei))
        #expect(!hub.isOnline(mei))
        #expect(hub.sessions(of: mei).isEmpty)
    }

    @Test func eventsReachTypedReceiversAsTheyAreButNotTheExcludedOne() {
        let scene = Scene()
        let (hub, mei, bob, meiPhone, meiLaptop, bobPhone) = (scene.hub, scene.mei, scene.bob, scene.meiPhone, scene.meiLaptop, scene.bobPhone)
        let presence = Presence(userId: bob, online: true, at: 5)
        hub.deliver(.presence(presence), to: [mei], excluding: meiLaptop.token)
        #expect(meiPhone.received.withLock { $0 } == [.presence(presence)])
        #expect(meiLaptop.received.withLock { $0.isEmpty })
        #expect(bobPhone.received.withLock { $0.isEmpty })
    }

    /// One user's `deliver` (a receipt's) reaches that user's connections as the list's does,
    /// and no one else's.
    @Test func anEventForOneUserReachesOnlyTheirConnections() {
        let scene = Scene()
        let (hub, mei, bob, meiPhone, meiLaptop, bobPhone) = (scene.hub, scene.mei, scene.bob, scene.meiPhone, scene.meiLaptop, scene.bobPhone)
        let receipt = ReceiptState(conversationId: ConversationID(rawValue: 7), userId: bob, deliveredSeq: 3)
        #expect(hub.deliver(.conversationReceipt(receipt), to: mei, excluding: meiPhone.token) == nil)
        #expect(meiLaptop.received.withLock { $0 } == [.conversationReceipt(receipt)])
        #expect(meiPhone.received.withLock { $0.isEmpty } && bobPhone.received.withLock { $0.isEmpty })
        hub.deliver(.conversationReceipt(receipt), to: UserID(rawValue: 3), excluding: nil)
        #expect(meiLaptop.received.withLock { $0.count } == 1, "nobody else hears of an event for someone offline")
    }

    /// Push notifications ask for the members without an active connection all at once.
    @Test func usersWithoutAnActiveConnectionAreFoundInTheirOrder() {
        let hub = ConnectionHub()
        let mei = UserID(rawValue: 1), bob = UserID(rawValue: 2), ana = UserID(rawValue: 3), zoe = UserID(rawValue: 4)
        _ = hub.add(Receiver(1), for: mei)
        _ = hub.add(Receiver(2), for: bob)
        _ = hub.add(Receiver(3), for: bob)
        let backgrounded: Set<ConnectionToken> = [ConnectionToken(1), ConnectionToken(2)]
        // Mei's one connection is in the background, one of Bob's is not; Ana and Zoe have none.
        #expect(hub.users(among: [zoe, mei, bob, ana], withNo: { !backgrounded.contains($0) }) == [zoe, mei, ana])
        #expect(hub.users(among: [zoe, mei, ana], except: zoe, withNo: { _ in true }) == [ana])
        #expect(hub.users(among: [bob, mei], withNo: { _ in true }) == [])
        #expect(hub.users(among: [], withNo: { _ in true }) == [])
    }

    /// A fan-out (a new message's delivery) notes, in their order, the users it found no
    /// connection for: what `users(among:withNo:)` answers while every connection is active,
    /// so the push checks can take it instead of a second pass.
    @Test func aFanOutNotesTheUsersWithNoConnectionHereInTheirOrder() {
        let scene = Scene()
        let (hub, mei, bob, meiPhone, meiLaptop, bobPhone) = (scene.hub, scene.mei, scene.bob, scene.meiPhone, scene.meiLaptop, scene.bobPhone)
        let ana = UserID(rawValue: 3), zoe = UserID(rawValue: 4)
        let members = [zoe, mei, bob, ana]
        let presence = Presence(userId: mei, online: true, at: 9)
        let fanOut = hub.fanOut(.presence(presence), to: members, excluding: bobPhone.token)
        #expect(fanOut.unconnectedHere == [zoe, ana], "Bob's one connection was left out, but he is connected")
        #expect(fanOut.unconnectedHere == hub.users(among: members, withNo: { _ in true }))
        #expect(fanOut.encoded == nil, "no native connection: nothing was encoded")
        #expect(meiPhone.received.withLock { $0 } == [.presence(presence)] && meiLaptop.received.withLock { $0 } == [.presence(presence)])
        #expect(bobPhone.received.withLock { $0.isEmpty })
        #expect(hub.fanOut(.presence(presence), to: [mei, bob], excluding: nil).unconnectedHere == [])
    }
}

@Suite struct ConnectionHubWindowTests {
    /// Group and room events wait for the delivery window; a 1:1 conversation's (two users)
    /// and a user's own do not, and a zero window turns waiting off.
    @Test func onlyEventsToThreeUsersOrMoreWaitForTheWindow() {
        let hub = ConnectionHub(fanOutWindow: .milliseconds(5))
        #expect(hub.flushWindow(forEventTo: 1) == .zero)
        #expect(hub.flushWindow(forEventTo: 2) == .zero)
        #expect(hub.flushWindow(forEventTo: 3) == .milliseconds(5))
        #expect(hub.flushWindow(forEventTo: 1000) == .milliseconds(5))
        #expect(ConnectionHub().flushWindow(forEventTo: 1000) == .zero)
    }
}

@Suite struct ConnectionHubRegistryTests {
    /// A gateway stanza goes to typed receivers only, never as an event, and not to the one
    /// left out.
    @Test func forwardedStanzasReachOnlyTypedReceivers() {
        let hub = ConnectionHub()
        let mei = UserID(rawValue: 1)
        let phone = ConnectionHubTests.Receiver(1), laptop = ConnectionHubTests.Receiver(2)
        _ = hub.add(phone, for: mei)
        _ = hub.add(laptop, for: mei)
        let stanza = ForwardedStanza(type: "chat", id: nil, from: "a@b/c", children: "")
        hub.forward(stanza, to: [mei], excluding: laptop.token)
        #expect(phone.forwarded.withLock { $0 } == [stanza])
        #expect(laptop.forwarded.withLock { $0.isEmpty })
        #expect(phone.received.withLock { $0.isEmpty })
        // Closing a sign-in session's connections acts on WebSockets only; receivers hear nothing.
        hub.closeConnections(of: mei, signedInWith: "s")
        #expect(phone.received.withLock { $0.isEmpty })
    }
}
