import ParleyCore
import ParleyProtocol
import Testing
@testable import ParleyXMPP

@Suite struct MUCHandlerTests {
    private func presence(to room: String, type: String? = nil) -> XMLElement {
        XMLElement("presence", ["to": room, "type": type], children: [XMLElement("x", namespace: Namespace.muc)])
    }

    @Test func joiningANewRoomCreatesItAndAnswersWithSelfPresenceAndSubject() async throws {
        let fixture = try HandlerFixture()
        let alice = try await fixture.user("alice")
        let context = fixture.context()
        await context.remember(UserProfile(id: alice.user, username: "alice", createdAt: 1))

        await fixture.stanza(presence(to: "lobby@conference.chat.test/whatever"), me: alice, context: context)

        let sent = await context.sent
        let own = try #require(sent.first { $0.name == "presence" })
        #expect(own["from"] == "lobby@conference.chat.test/alice")
        let statuses = own.child("x", namespace: Namespace.mucUser)?.elements.compactMap { $0.name == "status" ? $0["code"] : nil }
        // 110: this is you; 210: the service assigned the nickname (not the one asked for);
        // 201: the join created the room, whose creator is shown as its owner.
        #expect(statuses == ["110", "210", "201"])
        #expect(own.child("x", namespace: Namespace.mucUser)?.child("item", namespace: Namespace.mucUser)?["affiliation"] == "owner")
        #expect(sent.last?.child("subject")?.text == "lobby")
        let (conversation, joined) = try #require(await context.joinedRoom(JID("lobby@conference.chat.test")!))
        #expect(joined.kind == .room && joined.nick == "alice")
        let info = try await fixture.services.rooms.info(for: alice.user, ConversationReference(conversationId: conversation))
        #expect(info.name == "lobby")
    }

    @Test func aGroupchatMessageIsStoredAndReflectedWithItsArchiveID() async throws {
        let fixture = try HandlerFixture()
        let alice = try await fixture.user("alice")
        let context = fixture.context()
        await fixture.stanza(presence(to: "lobby@conference.chat.test/alice"), me: alice, context: context)
        await context.clearSent()

        await fixture.stanza(XMLElement("message", ["type": "groupchat", "id": "g1", "to": "lobby@conference.chat.test"],
                                        children: [XMLElement("body", [:], text: "hi all")]), me: alice, context: context)

        let (conversation, _) = try #require(await context.joinedRoom(JID("lobby@conference.chat.test")!))
        let stored = try #require(try await fixture.services.conversations.history(for: alice.user, HistoryParameters(conversationId: conversation))
            .messages.last)
        #expect(stored.text == "hi all" && stored.clientId == "g1")
        let reflection = try #require(await context.sent.first)
        #expect(reflection["type"] == "groupchat" && reflection["id"] == "g1")
        #expect(reflection.child("stanza-id", namespace: Namespace.stanzaID)?["id"] == stored.id)
    }

    @Test func aGroupchatMessageToARoomNotJoinedIsRefused() async throws {
        let fixture = try HandlerFixture()
        let alice = try await fixture.user("alice")
        let context = fixture.context()

        await fixture.stanza(XMLElement("message", ["type": "groupchat", "to": "lobby@conference.chat.test"],
                                        children: [XMLElement("body", [:], text: "hi")]), me: alice, context: context)

        #expect(await context.sent.first?.child("error")?.elements.first?.name == "not-acceptable")
    }

    @Test func aGroupIsMembersOnlyAndLeavingEndsTheJoin() async throws {
        let fixture = try HandlerFixture()
        let alice = try await fixture.user("alice")
        let bob = try await fixture.user("bob")
        let group = try await fixture.services.groups.create(by: alice.user, CreateParameters(name: "Climbers"))
        let room = "group-\(group.id.rawValue)@conference.chat.test"

        let outsider = fixture.context()
        await fixture.stanza(presence(to: room + "/bob"), me: bob, context: outsider)
        let refusal = try #require(await outsider.sent.first)
        #expect(refusal["type"] == "error")
        #expect(refusal.child("error")?.elements.first?.name == "registration-required")
        #expect(await outsider.rooms.isEmpty)

        let owner = fixture.context()
        await fixture.stanza(presence(to: room + "/alice"), me: alice, context: owner)
        let own = try #require(await owner.sent.first { $0.name == "presence" })
        #expect(own.child("x", namespace: Namespace.mucUser)?.child("item", namespace: Namespace.mucUser)?["affiliation"] == "owner")
        #expect(await owner.sent.last?.child("subject")?.text == "Climbers")
        await owner.clearSent()

        await fixture.stanza(presence(to: room, type: "unavailable"), me: alice, context: owner)
        #expect(await owner.rooms.isEmpty)
        #expect(await owner.sent.first?["type"] == "unavailable")
    }

    @Test func aSubjectSetsTheDescriptionAndAPrivateMessageNeedsAFriend() async throws {
        let fixture = try HandlerFixture()
        let alice = try await fixture.user("alice")
        _ = try await fixture.user("bob")
        let context = fixture.context()
        await fixture.stanza(presence(to: "lobby@conference.chat.test/alice"), me: alice, context: context)
        await context.clearSent()

        await fixture.stanza(XMLElement("message", ["type": "groupchat", "to": "lobby@conference.chat.test"],
                                        children: [XMLElement("subject", [:], text: "  bouldering  ")]), me: alice, context: context)
        let (conversation, _) = try #require(await context.joinedRoom(JID("lobby@conference.chat.test")!))
        let info = try await fixture.services.rooms.info(for: alice.user, ConversationReference(conversationId: conversation))
        #expect(info.description == "bouldering")

        await fixture.stanza(XMLElement("message", ["type": "chat", "to": "lobby@conference.chat.test/bob"],
                                        children: [XMLElement("body", [:], text: "psst")]), me: alice, context: context)
        let refusal = try #require(await context.sent.last)
        #expect(refusal.child("error")?.elements.first?.name == "forbidden")
        #expect(refusal["from"] == "lobby@conference.chat.test/bob")
    }

    @Test func selfPingTellsWhetherOneIsStillInAndARoomListsItsParticipants() async throws {
        let fixture = try HandlerFixture()
        let alice = try await fixture.user("alice")
        let bob = try await fixture.user("bob")
        let context = fixture.context()
        await context.remember(UserProfile(id: alice.user, username: "alice", createdAt: 1))
        await fixture.stanza(presence(to: "lobby@conference.chat.test/alice"), me: alice, context: context)
        _ = try await fixture.services.rooms.enter(by: bob.user, NameReference(name: "lobby"))

        // XEP-0410: in the room, a ping to one's own occupant JID is answered.
        let ping = XMLElement("ping", namespace: Namespace.ping)
        #expect(try await fixture.answer("get", ping, to: "lobby@conference.chat.test/alice", me: alice, context: context) == nil)
        // A later join of the same room by another occupant is not "created".
        let bobStream = fixture.context()
        await fixture.stanza(presence(to: "lobby@conference.chat.test/bob"), me: bob, context: bobStream)
        let bobsOwn = try #require(await bobStream.sent.first { $0.name == "presence" && $0.serialized().contains("110") })
        #expect(!bobsOwn.serialized().contains("201"))

        // muc#admin lists of a Parley room: its occupants are its participants; its creator
        // is its owner.
        let participants = XMLElement("query", namespace: Namespace.mucAdmin, [:], children: [
            XMLElement("item", namespace: Namespace.mucAdmin, ["role": "participant"]),
        ])
        let list = try #require(try await fixture.answer("get", participants, to: "lobby@conference.chat.test", me: alice, context: context))
        #expect(Set(list.elements.compactMap { $0["nick"] }) == ["alice", "bob"])
        let owners = XMLElement("query", namespace: Namespace.mucAdmin, [:], children: [
            XMLElement("item", namespace: Namespace.mucAdmin, ["affiliation": "owner"]),
        ])
        let owner = try await fixture.answer("get", owners, to: "lobby@conference.chat.test", me: alice, context: context)
        #expect(owner?.elements.map { $0["nick"] } == ["alice"])

        // Out of the room, the self-ping says so.
        await fixture.stanza(presence(to: "lobby@conference.chat.test", type: "unavailable"), me: alice, context: context)
        do {
            _ = try await fixture.answer("get", ping, to: "lobby@conference.chat.test/alice", me: alice, context: context)
            Issue.record("a self-ping out of the room was answered")
        } catch let error as StanzaError {
            #expect(error.condition == "not-acceptable")
        }
    }
}
