import ParleyCore
import ParleyProtocol
import ParleySync
import Testing
@testable import ParleyServer

/// The hub as the gateways' registry: typed receivers (XMPP sessions) count for online state
/// and get the payload itself.
@Suite struct ConnectionHubTests {
    final class Receiver: EventReceiver {
        let token: ConnectionToken
        let received = PThreadMutex<[(String, Presence?)]>([])

        init(_ token: UInt64) { self.token = ConnectionToken(token) }

        func receive(event: String, payload: any Encodable & Sendable) {
            received.withLock { $0.append((event, payload as? Presence)) }
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
        hub.deliver(event: EventName.presence, payload: Presence(userId: mei, online: true, at: 1), to: [mei], excluding: nil)
        #expect(phone.received.withLock { $0.count } == 1 && laptop.received.withLock { $0.count } == 1)
        #expect(!hub.remove(phone, for: mei))
        #expect(!hub.remove(phone, for: mei), "removing twice is not a second going-offline")
        #expect(hub.remove(laptop, for: mei))
        #expect(!hub.isOnline(mei))
        #expect(hub.sessions(of: mei).isEmpty)
    }

    @Test func eventsReachTypedReceiversAsPayloadsButNotTheExcludedOne() {
        let hub = ConnectionHub()
        let mei = UserID(rawValue: 1), bob = UserID(rawValue: 2)
        let meiPhone = Receiver(1), meiLaptop = Receiver(2), bobPhone = Receiver(3)
        _ = hub.add(meiPhone, for: mei)
        _ = hub.add(meiLaptop, for: mei)
        _ = hub.add(bobPhone, for: bob)
        let presence = Presence(userId: bob, online: true, at: 5)
        hub.deliver(event: EventName.presence, payload: presence, to: [mei], excluding: meiLaptop.token)
        #expect(meiPhone.received.withLock { $0.map(\.1) } == [presence])
        #expect(meiPhone.received.withLock { $0.map(\.0) } == [EventName.presence])
        #expect(meiLaptop.received.withLock { $0.isEmpty })
        #expect(bobPhone.received.withLock { $0.isEmpty })
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

@Suite struct ConnectionHubControlEventTests {
    @Test func aClosedSignInSessionIsActedOnNotSentToReceivers() {
        let hub = ConnectionHub()
        let mei = UserID(rawValue: 1)
        let phone = ConnectionHubTests.Receiver(1)
        _ = hub.add(phone, for: mei)
        hub.deliver(event: EventName.signInSessionClosed, payload: SignInSessionClosed(sessionId: "s"), to: [mei], excluding: nil)
        #expect(phone.received.withLock { $0.isEmpty })
        hub.deliver(event: EventName.forwardedStanza, payload: ForwardedStanza(type: "chat", id: nil, from: "a@b/c", children: ""),
                    to: [mei], excluding: nil)
        #expect(phone.received.withLock { $0.map(\.0) } == [EventName.forwardedStanza], "typed receivers get gateway signals")
    }
}
