import ParleyCore
import ParleyProtocol
import Testing
@testable import ParleyXMPP

@Suite struct ArchiveHandlerTests {
    private func query(max: Int? = nil, with: String? = nil) -> XMLElement {
        var query = XMLElement("query", namespace: Namespace.mam, ["queryid": "q1"])
        if let with {
            query.append(DataForm(type: "submit", fields: [("FORM_TYPE", [Namespace.mam]), ("with", [with])]).element())
        }
        if let max {
            query.append(XMLElement("set", namespace: Namespace.resultSetManagement, [:], children: [
                XMLElement("max", namespace: Namespace.resultSetManagement, [:], text: String(max)),
            ]))
        }
        return query
    }

    /// The forwarded messages of the results sent: (from, to, body).
    private func forwarded(_ sent: [XMLElement]) -> [(String?, String?, String?)] {
        sent.compactMap { $0.child("result", namespace: Namespace.mam)?.child("forwarded", namespace: Namespace.forward)?.child("message") }
            .map { ($0["from"], $0["to"], $0.child("body")?.text) }
    }

    @Test func theArchiveIsSentOldestFirstAndPagedBeforeTheFin() async throws {
        let fixture = try HandlerFixture()
        let alice = try await fixture.user("alice")
        let bob = try await fixture.user("bob")
        let conversation = try await fixture.befriend(alice.user, bob.user)
        let conversations = fixture.services.conversations
        for (sender, text) in [(alice.user, "one"), (bob.user, "two"), (alice.user, "three")] {
            _ = try await conversations.send(from: sender, SendParameters(conversationId: conversation, clientId: "c-" + text, kind: .text, text: text),
                                             connection: nil)
        }
        let context = fixture.context()

        let fin = try #require(try await fixture.answer("set", query(max: 2), me: alice, context: context))

        let messages = forwarded(await context.sent)
        #expect(messages.map(\.2) == ["one", "two"])
        #expect(messages.first?.0 == "alice@chat.test" && messages.first?.1 == "bob@chat.test")
        #expect(messages.last?.0 == "bob@chat.test" && messages.last?.1 == "alice@chat.test")
        #expect(await context.sent.allSatisfy { $0["to"] == alice.full.description })
        #expect(await context.sent.compactMap { $0.child("result", namespace: Namespace.mam)?["queryid"] } == ["q1", "q1"])
        #expect(fin.name == "fin" && fin["queryid"] == "q1")
        #expect(fin["complete"] == "false")
        let set = try #require(fin.child("set", namespace: Namespace.resultSetManagement))
        #expect(set.child("count")?.text == "3")

        // The next page starts after the last id.
        let last = try #require(set.child("last")?.text)
        var next = query()
        next.append(XMLElement("set", namespace: Namespace.resultSetManagement, [:], children: [
            XMLElement("after", namespace: Namespace.resultSetManagement, [:], text: last),
        ]))
        let rest = fixture.context()
        let end = try #require(try await fixture.answer("set", next, me: alice, context: rest))
        #expect(forwarded(await rest.sent).map(\.2) == ["three"])
        #expect(end["complete"] == "true")
    }

    @Test func withFiltersByContactAndABadJIDIsMalformed() async throws {
        let fixture = try HandlerFixture()
        let alice = try await fixture.user("alice")
        let bob = try await fixture.user("bob")
        let carol = try await fixture.user("carol")
        let withBob = try await fixture.befriend(alice.user, bob.user)
        let withCarol = try await fixture.befriend(alice.user, carol.user)
        let conversations = fixture.services.conversations
        _ = try await conversations.send(from: bob.user, SendParameters(conversationId: withBob, clientId: "b", kind: .text, text: "from bob"),
                                         connection: nil)
        _ = try await conversations.send(from: carol.user, SendParameters(conversationId: withCarol, clientId: "c", kind: .text, text: "from carol"),
                                         connection: nil)
        let context = fixture.context()

        _ = try await fixture.answer("set", query(with: carol.bare.description), me: alice, context: context)
        #expect(forwarded(await context.sent).map(\.2) == ["from carol"])

        do {
            _ = try await fixture.answer("set", query(with: "@@"), me: alice, context: fixture.context())
            Issue.record("a malformed 'with' was accepted")
        } catch let error as StanzaError {
            #expect(error.condition == "jid-malformed")
        }
    }

    @Test func aRoomsArchiveNeedsTheRoomJoined() async throws {
        let fixture = try HandlerFixture()
        let alice = try await fixture.user("alice")
        let room = try #require(JID("lobby@conference.chat.test"))
        do {
            _ = try await ArchiveHandler.archive(query(), me: alice, room: room, context: fixture.context())
            Issue.record("a room not joined was archived")
        } catch let error as StanzaError {
            #expect(error.condition == "not-acceptable")
        }
    }
}
