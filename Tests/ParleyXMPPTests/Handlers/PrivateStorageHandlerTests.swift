import ParleyCore
import ParleyProtocol
import Testing
@testable import ParleyXMPP

@Suite struct PrivateStorageHandlerTests {
    private func query(_ child: XMLElement) -> XMLElement {
        XMLElement("query", namespace: Namespace.privateStorage, [:], children: [child])
    }

    @Test func bookmarksAreKeptPerUserAndReadBackAsStored() async throws {
        let fixture = try HandlerFixture()
        let alice = try await fixture.user("alice")
        let bob = try await fixture.user("bob")
        let storage = XMLElement("storage", namespace: Namespace.bookmarks, [:], children: [
            XMLElement("conference", namespace: Namespace.bookmarks, ["jid": "tea@conference.chat.test", "autojoin": "true", "name": "Tea & 茶"],
                       children: [XMLElement("nick", namespace: Namespace.bookmarks, [:], text: "alice")]),
        ])
        let empty = XMLElement("storage", namespace: Namespace.bookmarks)

        // Nothing stored yet: the empty element comes back.
        let before = try #require(try await fixture.answer("get", query(empty), me: alice, context: fixture.context()))
        #expect(before.elements == [empty])
        #expect(try await fixture.answer("set", query(storage), me: alice, context: fixture.context()) == nil)
        let after = try #require(try await fixture.answer("get", query(empty), me: alice, context: fixture.context()))
        #expect(after.elements == [storage])
        // Bob's is his own.
        let bobs = try #require(try await fixture.answer("get", query(empty), me: bob, context: fixture.context()))
        #expect(bobs.elements == [empty])
        // Another user's storage, and elements of the reserved namespaces, are refused.
        await #expect(throws: StanzaError.self) {
            _ = try await fixture.answer("get", query(empty), to: "alice@chat.test", me: bob, context: fixture.context())
        }
        await #expect(throws: StanzaError.self) {
            _ = try await fixture.answer("set", query(XMLElement("x", namespace: Namespace.client)), me: alice, context: fixture.context())
        }
    }

    @Test func rosterNamesAndGroupsAreKeptAndPushedToEveryResource() async throws {
        let fixture = try HandlerFixture()
        let alice = try await fixture.user("alice")
        let bob = try await fixture.user("bob")
        _ = try await fixture.befriend(alice.user, bob.user)
        let set = XMLElement("query", namespace: Namespace.roster, [:], children: [
            XMLElement("item", namespace: Namespace.roster, ["jid": bob.bare.description, "name": "Bobby"], children: [
                XMLElement("group", namespace: Namespace.roster, [:], text: "Climbing"),
                XMLElement("group", namespace: Namespace.roster, [:], text: "家"),
            ]),
        ])
        #expect(try await fixture.answer("set", set, me: alice, context: fixture.context()) == nil)

        let (push, users) = try #require(fixture.registry.forwarded.last)
        #expect(users == [alice.user] && push.stanza == "iq")
        #expect(push.children.contains("name='Bobby'") && push.children.contains("<group>家</group>"))
        let roster = try #require(try await fixture.answer("get", XMLElement("query", namespace: Namespace.roster), me: alice,
                                                           context: fixture.context()))
        let item = try #require(roster.elements.first)
        #expect(item["name"] == "Bobby" && item["subscription"] == "both")
        #expect(item.elements.map(\.text) == ["Climbing", "家"])
        // Bob's roster is his own.
        let bobs = try #require(try await fixture.answer("get", XMLElement("query", namespace: Namespace.roster), me: bob,
                                                         context: fixture.context()))
        #expect(bobs.elements.first?["name"] == "alice" && bobs.elements.first?.elements.isEmpty == true)
    }

    @Test func aUserKeepsAtMostTheLimitOfItemsAndReplacingOneStillWorks() async throws {
        let fixture = try HandlerFixture()
        let alice = try await fixture.user("alice")
        let storage = fixture.services.privateStorage
        for index in 0..<3 {
            try await storage.set("<x xmlns='urn:\(index)'/>", key: "private x urn:\(index)", of: alice.user, limit: 3)
        }
        do {
            try await storage.set("<x xmlns='urn:3'/>", key: "private x urn:3", of: alice.user, limit: 3)
            Issue.record("an item over the limit was kept")
        } catch {
            #expect(error.code == .quotaExceeded)
            // Over XMPP: wait, resource-constraint.
            #expect(StanzaError(error).condition == "resource-constraint")
        }
        try await storage.set("<x xmlns='urn:0' v='2'/>", key: "private x urn:0", of: alice.user, limit: 3)
        try await storage.set(nil, key: "private x urn:1", of: alice.user, limit: 3)
        try await storage.set("<x xmlns='urn:3'/>", key: "private x urn:3", of: alice.user, limit: 3)
        #expect(try await storage.items(of: alice.user, keyPrefix: "private ").keys.sorted() == ["private x urn:0", "private x urn:2", "private x urn:3"])
        #expect(try await storage.item(of: alice.user, key: "private x urn:0") == "<x xmlns='urn:0' v='2'/>")
    }
}
