import CoreTestSupport
import ParleyCore
import ParleyProtocol
import ParleySync
import Testing
@testable import ParleyXMPP

@Suite struct PushHandlerTests {
    private static func enable(_ jid: String, node: String?) -> XMLElement {
        XMLElement("enable", namespace: Namespace.push, ["jid": jid, "node": node], children: [
            DataForm(type: "submit", fields: [("FORM_TYPE", ["http://jabber.org/protocol/pubsub#publish-options"]), ("secret", ["s3"])]).element(),
        ])
    }

    @Test func anAwayUsersAppServerGetsASummaryPublishWithoutTheBody() async throws {
        let fixture = try HandlerFixture()
        let alice = try await fixture.user("alice")
        let bob = try await fixture.user("bob")
        let app = try await fixture.user("pushapp")
        let conversation = try await fixture.befriend(alice.user, bob.user)
        let context = fixture.context()
        #expect(try await fixture.answer("set", Self.enable("pushapp@chat.test", node: "n1"), me: alice, context: context) == nil)

        let away = PThreadMutex(true)
        let notifier = XMPPPushNotifier(services: fixture.services, isAway: { _ in away.withLock { $0 } })
        let message = Message(id: "m1", conversationId: conversation, seq: 9, sender: bob.user, clientId: "c1", kind: .text,
                              text: "a secret body", createdAt: 1)
        notifier.stored(message, for: [alice.user, bob.user])
        var publishes: [(ForwardedStanza, [UserID])] = []
        for _ in 0..<200 {
            publishes = fixture.registry.forwarded.filter { $0.0.stanza == "iq" }
            if !publishes.isEmpty { break }
            try await Task.sleep(for: .milliseconds(10))
        }
        let (publish, users) = try #require(publishes.first)
        #expect(users == [app.user] && publish.type == "set" && publish.from == "alice@chat.test")
        #expect(publish.children.contains("<publish node='n1'>") && publish.children.contains("urn:xmpp:push:summary"))
        #expect(publish.children.contains("<field var='message-count'><value>1</value></field>"))
        #expect(publish.children.contains("<field var='last-message-sender'><value>bob@chat.test</value></field>"))
        #expect(publish.children.contains("<publish-options>") && publish.children.contains("s3"))
        #expect(!publish.children.contains("a secret body"))

        // Present again: nothing; the sender is never told of their own message.
        away.withLock { $0 = false }
        notifier.stored(message, for: [alice.user, bob.user])
        away.withLock { $0 = true }
        let own = Message(id: "m2", conversationId: conversation, seq: 10, sender: alice.user, clientId: "c2", kind: .text,
                          text: "mine", createdAt: 2)
        notifier.stored(own, for: [alice.user, bob.user])
        // Disabled: nothing either.
        _ = try await fixture.answer("set", XMLElement("disable", namespace: Namespace.push, ["jid": "pushapp@chat.test"]),
                                     me: alice, context: context)
        notifier.stored(message, for: [alice.user, bob.user])
        try await Task.sleep(for: .milliseconds(200))
        #expect(fixture.registry.forwarded.filter { $0.0.stanza == "iq" }.count == 1)
    }

    @Test func anAppServerElsewhereOrTooManyRegistrationsAreRefused() async throws {
        let fixture = try HandlerFixture()
        let alice = try await fixture.user("alice")
        _ = try await fixture.user("pushapp")
        let context = fixture.context()
        await #expect(throws: StanzaError.self) {
            _ = try await fixture.answer("set", Self.enable("push.example.org", node: "n"), me: alice, context: context)
        }
        await #expect(throws: StanzaError.self) {
            _ = try await fixture.answer("set", Self.enable("pushapp@chat.test", node: nil), me: alice, context: context)
        }
        let limit = fixture.services.pushRegistrations.limit
        for index in 0..<limit {
            _ = try await fixture.answer("set", Self.enable("pushapp@chat.test", node: "n\(index)"), me: alice, context: context)
        }
        // Renewing one is no new one; another is over the limit.
        _ = try await fixture.answer("set", Self.enable("pushapp@chat.test", node: "n0"), me: alice, context: context)
        do {
            _ = try await fixture.answer("set", Self.enable("pushapp@chat.test", node: "extra"), me: alice, context: context)
            Issue.record("over the limit was accepted")
        } catch let error as StanzaError {
            #expect(error.condition == "resource-constraint")
        }
        #expect(fixture.services.pushRegistrations.registrations(of: alice.user).count == limit)
    }
}
