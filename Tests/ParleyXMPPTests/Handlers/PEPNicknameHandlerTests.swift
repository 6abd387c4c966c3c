import CoreTestSupport
import ParleyCore
import ParleyProtocol
import Testing
@testable import ParleyXMPP

@Suite struct PEPNicknameHandlerTests {
    private static func pubsub(_ action: XMLElement) -> XMLElement {
        XMLElement("pubsub", namespace: Namespace.pubsub, [:], children: [action])
    }

    private static func publish(_ nick: String) -> XMLElement {
        pubsub(XMLElement("publish", namespace: Namespace.pubsub, ["node": Namespace.nick], children: [
            XMLElement("item", namespace: Namespace.pubsub, [:], children: [XMLElement("nick", namespace: Namespace.nick, [:], text: nick)]),
        ]))
    }

    private static let itemsQuery = pubsub(XMLElement("items", namespace: Namespace.pubsub, ["node": Namespace.nick]))

    @Test func publishingTheNickNodeIsTheProfileNicknameAndIsAnnouncedToFriends() async throws {
        let fixture = try HandlerFixture()
        let alice = try await fixture.user("alice")
        let bob = try await fixture.user("bob")
        _ = try await fixture.befriend(alice.user, bob.user)
        let context = fixture.context()

        // Empty before: no item.
        let before = try #require(try await fixture.answer("get", Self.itemsQuery, to: "alice@chat.test", me: bob, context: context))
        #expect(before.child("items")?.elements.isEmpty == true)

        let published = try #require(try await fixture.answer("set", Self.publish(" Ally "), me: alice, context: context))
        #expect(published.child("publish")?.child("item")?["id"] == PEPNicknameHandler.itemID)
        #expect(try await fixture.services.accounts.profile(id: alice.user).nickname == "Ally")
        // The native clients hear of it; the friends' and her own streams get the event.
        #expect(fixture.delivery.events.contains { if case .meUpdated(let account) = $0.event { account.profile.nickname == "Ally" } else { false } })
        let (event, users) = try #require(fixture.registry.forwarded.last)
        #expect(event.type == "headline" && event.from == "alice@chat.test" && Set(users) == [alice.user, bob.user])
        #expect(event.children.contains("<nick xmlns='http://jabber.org/protocol/nick'>Ally</nick>"))

        // Bob reads Alice's node: the nickname.
        let read = try #require(try await fixture.answer("get", Self.itemsQuery, to: "alice@chat.test", me: bob, context: context))
        #expect(read.child("items")?.child("item")?.child("nick", namespace: Namespace.nick)?.text == "Ally")

        // Retracting clears it.
        let retract = Self.pubsub(XMLElement("retract", namespace: Namespace.pubsub, ["node": Namespace.nick], children: [
            XMLElement("item", namespace: Namespace.pubsub, ["id": PEPNicknameHandler.itemID]),
        ]))
        _ = try await fixture.answer("set", retract, me: alice, context: context)
        #expect(try await fixture.services.accounts.profile(id: alice.user).nickname == nil)
    }

    @Test func otherNodesAndOthersNodesAreRefused() async throws {
        let fixture = try HandlerFixture()
        let alice = try await fixture.user("alice")
        let bob = try await fixture.user("bob")
        let context = fixture.context()
        let other = Self.pubsub(XMLElement("items", namespace: Namespace.pubsub, ["node": "urn:xmpp:avatar:metadata"]))
        await #expect(throws: StanzaError.self) { _ = try await fixture.answer("get", other, me: alice, context: context) }
        // Publishing to someone else's node is not one's own profile.
        await #expect(throws: StanzaError.self) {
            _ = try await fixture.answer("set", Self.publish("x"), to: "bob@chat.test", me: alice, context: context)
        }
        #expect(try await fixture.services.accounts.profile(id: bob.user).nickname == nil)
    }
}
