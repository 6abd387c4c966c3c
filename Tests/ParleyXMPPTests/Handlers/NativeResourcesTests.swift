import CoreTestSupport
import ParleySync
import ParleyCore
import ParleyProtocol
import Testing
@testable import ParleyXMPP

@Suite struct NativeResourcesTests {
    @Test func aDeviceNameBecomesAResourceKeepingItsPunctuationTaggedWithTheSession() {
        #expect(NativeResources.resourceName(deviceName: "Chrome on Linux", sessionID: "Ab3x9Kq2zz") == "Chrome on Linux.ab3x9k")
        // Spaces and ordinary punctuation stay as typed; a resource allows them (RFC 7622).
        #expect(NativeResources.resourceName(deviceName: "Bob's iPhone", sessionID: "q1") == "Bob's iPhone.q1")
        #expect(NativeResources.resourceName(deviceName: "  Mei's phone / 2 ", sessionID: "k-1_2345678") == "Mei's phone / 2.k12345")
        #expect(NativeResources.resourceName(deviceName: "Dr. Wi-Fi (old)", sessionID: "zz") == "Dr. Wi-Fi (old).zz")
        #expect(NativeResources.resourceName(deviceName: "小米 手机", sessionID: "zz") == "小米 手机.zz")
        // What a resource may not hold goes: control characters, noncharacters; a tab or a line
        // break is a space.
        #expect(NativeResources.resourceName(deviceName: "a\u{7}b\u{7F}c\u{85}d\u{FFFE}\te", sessionID: "zz") == "abc d e.zz")
        #expect(NativeResources.resourceName(deviceName: nil, sessionID: "abcdef12") == "parley.abcdef")
        #expect(NativeResources.resourceName(deviceName: "\u{1}\u{2} ", sessionID: "") == "parley.0")
        let long = NativeResources.resourceName(deviceName: String(repeating: "x", count: 500), sessionID: "s1")
        #expect(long == String(repeating: "x", count: NativeResources.maxDeviceCharacters) + ".s1")
        // Characters of many bytes each: cut by bytes too, at a whole character.
        let family = "👨‍👩‍👧‍👦"
        let wide = NativeResources.resourceName(deviceName: String(repeating: family, count: 40), sessionID: "s1")
        #expect(wide == String(repeating: family, count: NativeResources.maxDeviceBytes / family.utf8.count) + ".s1")
        for name in ["Bob's iPhone.q1", wide, long] { #expect(JID.isValidResource(name)) }
    }

    @Test func aResourceTakesPunctuationAndSpacesButNoControlCharacters() {
        #expect(JID.isValidResource("Bob's iPhone (2).k3"))
        #expect(JID.isValidResource("Gajim / home"))
        #expect(!JID.isValidResource(""))
        #expect(!JID.isValidResource("tab\there"))
        #expect(!JID.isValidResource("del\u{7F}"))
        #expect(!JID.isValidResource("c1\u{85}"))
        #expect(!JID.isValidResource(String(repeating: "x", count: JID.maxPartBytes + 1)))
        #expect(JID.isValidResource(String(repeating: "x", count: JID.maxPartBytes)))
    }

    @Test func eachSessionIsAResourceAwayOnlyWhenAllItsConnectionsAre() {
        let native = NativeResources()
        let changes = PThreadMutex<[NativeResources.Change]>([])
        native.observe { change in changes.withLock { $0.append(change) } }
        let mei = UserID(rawValue: 5)
        native.signedIn(mei, local: "mei", token: ConnectionToken(1), sessionID: "aaaaaa", deviceName: "Phone")
        native.signedIn(mei, local: "mei", token: ConnectionToken(2), sessionID: "bbbbbb", deviceName: "Laptop")
        // A second connection of the same session is the same resource: no change.
        native.signedIn(mei, local: "mei", token: ConnectionToken(3), sessionID: "bbbbbb", deviceName: "Laptop")
        #expect(native.resources(of: mei).map(\.name) == ["Laptop.bbbbbb", "Phone.aaaaaa"])
        #expect(changes.withLock { $0 }.map(\.resource) == ["Phone.aaaaaa", "Laptop.bbbbbb"])

        native.clientState(ConnectionToken(2), active: false)
        #expect(native.resource("Laptop.bbbbbb", of: mei)?.active == true)
        native.clientState(ConnectionToken(3), active: false)
        #expect(native.resource("Laptop.bbbbbb", of: mei)?.active == false)
        #expect(changes.withLock { $0 }.last?.now?.active == false)
        // An XMPP stream's token is no native connection: ignored.
        native.clientState(ConnectionToken(99), active: false)
        #expect(changes.withLock { $0 }.count == 3)

        // Signing one device out ends that resource only.
        native.closed(ConnectionToken(1))
        #expect(changes.withLock { $0 }.last?.resource == "Phone.aaaaaa" && changes.withLock { $0 }.last?.now == nil)
        #expect(native.resources(of: mei).map(\.name) == ["Laptop.bbbbbb"])
        native.closed(ConnectionToken(2))
        native.closed(ConnectionToken(3))
        #expect(!native.hasResources(mei))
        #expect(changes.withLock { $0 }.last?.resource == "Laptop.bbbbbb" && changes.withLock { $0 }.last?.now == nil)
    }

    @Test func aNativeDeviceIsAnnouncedToFriendsAndTheUserFromItsOwnResource() async throws {
        let fixture = try HandlerFixture()
        let alice = try await fixture.user("alice")
        let bob = try await fixture.user("bob")
        _ = try await fixture.befriend(alice.user, bob.user)
        let native = fixture.services.nativeResources
        native.signedIn(bob.user, local: "bob", token: ConnectionToken(500), sessionID: "q1w2e3r4", deviceName: "Firefox on Linux")
        native.clientState(ConnectionToken(500), active: false)
        native.closed(ConnectionToken(500))
        let presences = try await Self.forwarded(3, fixture)
        #expect(presences.map(\.0.from) == Array(repeating: "bob@chat.test/Firefox on Linux.q1w2e3", count: 3))
        #expect(presences.map(\.0.type) == [nil, nil, "unavailable"])
        #expect(presences[0].0.children.isEmpty && presences[1].0.children == "<show>away</show>")
        #expect(Set(presences[0].1) == [alice.user, bob.user])
    }

    @Test func aStreamThatBecomesAvailableSeesEachNativeDeviceOfItsFriendsAndItsUser() async throws {
        let fixture = try HandlerFixture()
        let alice = try await fixture.user("alice")
        let bob = try await fixture.user("bob")
        _ = try await fixture.befriend(alice.user, bob.user)
        let native = fixture.services.nativeResources
        native.signedIn(bob.user, local: "bob", token: ConnectionToken(600), sessionID: "bbbbbbbb", deviceName: "Tablet")
        native.signedIn(alice.user, local: "alice", token: ConnectionToken(601), sessionID: "cccccccc", deviceName: "Desk")
        native.clientState(ConnectionToken(601), active: false)
        // Bob counts as online, as the hub would say.
        fixture.delivery.setOnline(bob.user, alice.user)
        let context = fixture.context()
        _ = fixture.services.resources.bind(alice.user, requested: "r", token: context.token)
        await fixture.stanza(XMLElement("presence"), me: alice, context: context)

        let seen = await context.sent.filter { $0.name == "presence" }
        #expect(seen.contains { $0["from"] == "bob@chat.test/Tablet.bbbbbb" && $0["type"] == nil && $0.child("show") == nil })
        #expect(seen.contains { $0["from"] == "alice@chat.test/Desk.cccccc" && $0.child("show")?.text == "away" })
        // No made-up `parley` resource beside the devices.
        #expect(!seen.contains { $0["from"]?.hasSuffix("/parley") == true })
        // A stream cannot bind a native device's name.
        #expect(fixture.services.resources.bind(alice.user, requested: "Desk.cccccc", token: ConnectionToken(9)) != "Desk.cccccc")
    }

    @Test func theNativeClientsOfTheUserAndFriendsHearOfItsJabberResources() async throws {
        let fixture = try HandlerFixture()
        let alice = try await fixture.user("alice")
        let bob = try await fixture.user("bob")
        _ = try await fixture.befriend(alice.user, bob.user)
        let context = fixture.context()
        _ = fixture.services.resources.bind(alice.user, requested: "r", token: context.token)
        await fixture.stanza(XMLElement("presence", [:], children: [XMLElement("show", [:], text: "dnd")]), me: alice, context: context)
        let dnd = ResourcePresence(resource: "r", available: true, show: "dnd", status: nil, userId: alice.user, client: ResourcePresence.xmppClient)
        #expect(fixture.services.nativeResources.jabberResources(of: alice.user) == [dnd])
        #expect(fixture.services.nativeResources.presences(of: alice.user) == [dnd])
        await fixture.stanza(XMLElement("presence", ["type": "unavailable"]), me: alice, context: context)
        let told = fixture.delivery.events.compactMap { sent -> ResourcePresence? in
            guard case .resourcePresence(let presence) = sent.event, Set(sent.users) == [alice.user, bob.user],
                  sent.excluding == context.token else { return nil }
            return presence
        }
        #expect(told == [dnd, ResourcePresence(resource: "r", available: false, userId: alice.user, client: ResourcePresence.xmppClient)])
        #expect(fixture.services.nativeResources.jabberResources(of: alice.user).isEmpty)
    }

    @Test func aNativeDeviceIsAResourceTheUserAndFriendsHearOf() async throws {
        let fixture = try HandlerFixture()
        let alice = try await fixture.user("alice")
        let bob = try await fixture.user("bob")
        _ = try await fixture.befriend(alice.user, bob.user)
        let native = fixture.services.nativeResources
        native.signedIn(alice.user, local: "alice", token: ConnectionToken(77), sessionID: "ses123456", deviceName: "Phone")
        let name = NativeResources.resourceName(deviceName: "Phone", sessionID: "ses123456")
        #expect(native.presences(of: alice.user)
                    == [ResourcePresence(resource: name, available: true, userId: alice.user, client: ResourcePresence.parleyClient)])
        // Told by the gateway's own task: waited for.
        var told: [ResourcePresence] = []
        for _ in 0..<200 where told.isEmpty {
            told = fixture.delivery.events.compactMap { sent -> ResourcePresence? in
                guard case .resourcePresence(let presence) = sent.event, Set(sent.users) == [alice.user, bob.user] else { return nil }
                return presence
            }
            if told.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
        }
        #expect(told == [ResourcePresence(resource: name, available: true, userId: alice.user, client: ResourcePresence.parleyClient)])
    }

    /// Waits (at most two seconds) for `count` forwarded stanzas: native changes are announced
    /// by the gateway's own task.
    private static func forwarded(_ count: Int, _ fixture: HandlerFixture) async throws -> [(ForwardedStanza, [UserID])] {
        for _ in 0..<200 where fixture.registry.forwarded.count < count {
            try await Task.sleep(for: .milliseconds(10))
        }
        return fixture.registry.forwarded
    }
}
