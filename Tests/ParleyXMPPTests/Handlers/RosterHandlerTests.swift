import ParleyCore
import ParleyProtocol
import Testing
@testable import ParleyXMPP

@Suite struct RosterHandlerTests {
    @Test func theRosterIsTheFriendListAndItsAddressesAreLearned() async throws {
        let fixture = try HandlerFixture()
        let alice = try await fixture.user("alice")
        let bob = try await fixture.user("bob")
        _ = try await fixture.user("carol")
        _ = try await fixture.befriend(alice.user, bob.user)
        let context = fixture.context()

        let roster = try #require(try await fixture.answer("get", XMLElement("query", namespace: Namespace.roster), me: alice, context: context))
        let items = roster.elements.filter { $0.name == "item" }
        #expect(items.map { $0["jid"] } == ["bob@\(HandlerFixture.domain)"])
        #expect(items.first?["subscription"] == "both")
        #expect(items.first?["name"] == "bob")
        #expect(await context.learned == [bob.user])
        // A result, not a push: nothing else was sent.
        #expect(await context.sent.isEmpty)
    }

    @Test func removingAnItemEndsTheFriendship() async throws {
        let fixture = try HandlerFixture()
        let alice = try await fixture.user("alice")
        let bob = try await fixture.user("bob")
        _ = try await fixture.befriend(alice.user, bob.user)
        let remove = XMLElement("query", namespace: Namespace.roster, [:], children: [
            XMLElement("item", namespace: Namespace.roster, ["jid": bob.bare.description, "subscription": "remove"]),
        ])

        let answer = try await fixture.answer("set", remove, me: alice, context: fixture.context())

        #expect(answer == nil)
        #expect(try await fixture.services.social.allFriends(of: alice.user).isEmpty)
        #expect(try await fixture.services.social.allFriends(of: bob.user).isEmpty)
    }

    @Test func aSetWithoutAnItemIsAMissingField() async throws {
        let fixture = try HandlerFixture()
        let alice = try await fixture.user("alice")
        await #expect(throws: ProtocolError.self) {
            _ = try await fixture.answer("set", XMLElement("query", namespace: Namespace.roster), me: alice, context: fixture.context())
        }
    }

    @Test func anotherUsersRosterIsNotServed() async throws {
        let fixture = try HandlerFixture()
        let alice = try await fixture.user("alice")
        let bob = try await fixture.user("bob")
        do {
            _ = try await fixture.answer("get", XMLElement("query", namespace: Namespace.roster), to: bob.bare.description, me: alice,
                                         context: fixture.context())
            Issue.record("another user's roster was answered")
        } catch let error as StanzaError {
            #expect(error.condition == "service-unavailable")
        }
    }
}
