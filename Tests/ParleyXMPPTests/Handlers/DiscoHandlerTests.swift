import ParleyCore
import ParleyProtocol
import Testing
@testable import ParleyXMPP

@Suite struct DiscoHandlerTests {
    @Test func theServersFeaturesAreTheTablesInRegistrationOrder() async throws {
        let fixture = try HandlerFixture()
        let alice = try await fixture.user("alice")
        let info = try #require(try await fixture.answer("get", XMLElement("query", namespace: Namespace.discoInfo),
                                                         to: HandlerFixture.domain, me: alice, context: fixture.context()))
        #expect(info.child("identity")?["category"] == "server")
        let features = info.elements.filter { $0.name == "feature" }.compactMap { $0["var"] }
        #expect(features == fixture.handlers.serverFeatures)
        #expect(features == [Namespace.discoInfo, Namespace.discoItems, Namespace.ping, Namespace.roster, Namespace.vcard, Namespace.lastActivity,
                             ] + PEPHandler().features + [Namespace.push, Namespace.blocking, Namespace.receipts, Namespace.chatStates, Namespace.chatMarkers, Namespace.carbons, Namespace.mam])
    }

    @Test func theServersItemsAreItsServices() async throws {
        let fixture = try HandlerFixture()
        let alice = try await fixture.user("alice")
        let items = try #require(try await fixture.answer("get", XMLElement("query", namespace: Namespace.discoItems),
                                                          me: alice, context: fixture.context()))
        #expect(items.elements.map { $0["jid"] } == ["conference.chat.test", "upload.chat.test"])
        // A user has no items.
        let none = try #require(try await fixture.answer("get", XMLElement("query", namespace: Namespace.discoItems),
                                                         to: alice.bare.description, me: alice, context: fixture.context()))
        #expect(none.elements.isEmpty)
    }

    @Test func aUserIsARegisteredAccountAndAnUnknownOneIsNotFound() async throws {
        let fixture = try HandlerFixture()
        let alice = try await fixture.user("alice")
        _ = try await fixture.user("bob")
        let info = try #require(try await fixture.answer("get", XMLElement("query", namespace: Namespace.discoInfo),
                                                         to: "bob@chat.test", me: alice, context: fixture.context()))
        #expect(info.child("identity")?["category"] == "account")
        #expect(info.child("identity")?["type"] == "registered")
        // Another's account does not offer its archive; one's own does (XEP-0313 §7).
        #expect(!info.elements.contains { $0["var"] == Namespace.mam })
        let own = try #require(try await fixture.answer("get", XMLElement("query", namespace: Namespace.discoInfo),
                                                        to: "alice@chat.test", me: alice, context: fixture.context()))
        #expect(own.elements.contains { $0["var"] == Namespace.mam })
        await #expect(throws: ProtocolError.self) {
            _ = try await fixture.answer("get", XMLElement("query", namespace: Namespace.discoInfo), to: "nobody@chat.test",
                                         me: alice, context: fixture.context())
        }
    }

    @Test func aSetIsNotServedAndAnUnknownPayloadHasNoHandler() async throws {
        let fixture = try HandlerFixture()
        let alice = try await fixture.user("alice")
        await #expect(throws: StanzaError.self) {
            _ = try await fixture.answer("set", XMLElement("query", namespace: Namespace.discoInfo), me: alice, context: fixture.context())
        }
        #expect(fixture.handlers.handler(for: XMLElement("query", namespace: "urn:example:unknown")) == nil)
        #expect(fixture.handlers.handler(for: XMLElement("block", namespace: Namespace.blocking)) is BlockingHandler)
        #expect(fixture.handlers.handler(for: XMLElement("enable", namespace: Namespace.carbons)) is CarbonsHandler)
    }

    @Test func carbonsAreSetOnTheStream() async throws {
        let fixture = try HandlerFixture()
        let alice = try await fixture.user("alice")
        let context = fixture.context()
        _ = try await fixture.answer("set", XMLElement("enable", namespace: Namespace.carbons), me: alice, context: context)
        #expect(await context.carbons == true)
        _ = try await fixture.answer("set", XMLElement("disable", namespace: Namespace.carbons), me: alice, context: context)
        #expect(await context.carbons == false)
    }
}
