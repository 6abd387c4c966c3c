import ParleyCore
import ParleyProtocol
import Testing
@testable import ParleyXMPP

@Suite struct ConferenceHandlerTests {
    private func members(_ fixture: HandlerFixture, of room: String, me: XMPPIdentity) async throws -> [String?] {
        let query = XMLElement("query", namespace: Namespace.mucAdmin, [:], children: [
            XMLElement("item", namespace: Namespace.mucAdmin, ["affiliation": "member"]),
        ])
        let answer = try #require(try await fixture.answer("get", query, to: room, me: me, context: fixture.context()))
        return answer.elements.map { $0["nick"] }
    }

    @Test func registeringWithAGroupsRoomJoinsTheGroupAndTheOwnerCanKick() async throws {
        let fixture = try HandlerFixture()
        let alice = try await fixture.user("alice")
        let bob = try await fixture.user("bob")
        let group = try await fixture.services.groups.create(by: alice.user, CreateParameters(name: "Climbers"))
        let room = "group-\(group.id.rawValue)@conference.chat.test"

        let before = try #require(try await fixture.answer("get", XMLElement("query", namespace: Namespace.register), to: room, me: bob,
                                                           context: fixture.context()))
        #expect(before.child("registered") == nil && before.child("instructions") != nil)
        _ = try await fixture.answer("set", XMLElement("query", namespace: Namespace.register), to: room, me: bob, context: fixture.context())
        let after = try #require(try await fixture.answer("get", XMLElement("query", namespace: Namespace.register), to: room, me: bob,
                                                          context: fixture.context()))
        #expect(after.child("registered") != nil)
        #expect(try await members(fixture, of: room, me: alice) == ["bob"])

        // Bob may not kick; alice, the owner, may.
        let kick = XMLElement("query", namespace: Namespace.mucAdmin, [:], children: [
            XMLElement("item", namespace: Namespace.mucAdmin, ["nick": "bob", "role": "none"]),
        ])
        await #expect(throws: ProtocolError.self) {
            _ = try await fixture.answer("set", kick, to: room, me: bob, context: fixture.context())
        }
        _ = try await fixture.answer("set", kick, to: room, me: alice, context: fixture.context())
        #expect(try await members(fixture, of: room, me: alice).isEmpty)
    }

    @Test func theServiceDescribesItselfAndARoomMustBeJoined() async throws {
        let fixture = try HandlerFixture()
        let alice = try await fixture.user("alice")
        let info = try #require(try await fixture.answer("get", XMLElement("query", namespace: Namespace.discoInfo),
                                                         to: "conference.chat.test", me: alice, context: fixture.context()))
        #expect(info.child("identity")?["category"] == "conference")
        #expect(info.elements.contains { $0["var"] == Namespace.muc })
        // A Parley room (not a group) is known only once joined.
        do {
            _ = try await fixture.answer("get", XMLElement("query", namespace: Namespace.mucOwner), to: "lobby@conference.chat.test",
                                         me: alice, context: fixture.context())
            Issue.record("a room not joined was configured")
        } catch let error as StanzaError {
            #expect(error.condition == "not-acceptable")
        }
        #expect(fixture.handlers.service(for: JID("lobby@conference.chat.test")) is ConferenceHandler)
    }
}
