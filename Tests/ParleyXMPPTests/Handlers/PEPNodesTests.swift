import CoreTestSupport
import ParleyCore
import ParleyNet
import ParleyProtocol
import Testing
@testable import ParleyXMPP

/// Generic personal eventing nodes (`PEPHandler+Nodes`) over the real `PEPService` and a
/// SQLite store: publish with options, retrieve by access model, `max_items`, retract,
/// configure, delete, the events' audience, and the limits (the fixture's: 3 nodes, 200
/// bytes, 4 items).
@Suite struct PEPNodesTests {
    static let devices = "eu.siacs.conversations.axolotl.devicelist"
    static let bundles = "eu.siacs.conversations.axolotl.bundles:7"

    private static func pubsub(_ children: XMLElement..., owner: Bool = false) -> XMLElement {
        XMLElement("pubsub", namespace: owner ? Namespace.pubsubOwner : Namespace.pubsub, [:], children: children)
    }

    private static func publish(_ node: String, id: String?, _ payload: XMLElement, options: [String: String] = [:]) -> XMLElement {
        var query = pubsub(XMLElement("publish", namespace: Namespace.pubsub, ["node": node], children: [
            XMLElement("item", namespace: Namespace.pubsub, ["id": id], children: [payload]),
        ]))
        if !options.isEmpty {
            let fields: [(name: String, values: [String])] = [(name: "FORM_TYPE", values: [Namespace.pubsubPublishOptions])]
                + options.sorted { $0.key < $1.key }.map { (name: $0.key, values: [$0.value]) }
            let form = DataForm(type: "submit", fields: fields)
            query.append(XMLElement("publish-options", namespace: Namespace.pubsub, [:], children: [form.element()]))
        }
        return query
    }

    private static func items(_ node: String, max: Int? = nil) -> XMLElement {
        pubsub(XMLElement("items", namespace: Namespace.pubsub, ["node": node, "max_items": max.map { String($0) }]))
    }

    private static func deviceList(_ ids: Int...) -> XMLElement {
        XMLElement("list", namespace: "eu.siacs.conversations.axolotl", [:], children: ids.map {
            XMLElement("device", namespace: "eu.siacs.conversations.axolotl", ["id": String($0)])
        })
    }

    @Test func anOpenDeviceListIsReadByAnyoneAndAPresenceBundleByFriendsOnly() async throws {
        let fixture = try HandlerFixture()
        let alice = try await fixture.user("alice")
        let bob = try await fixture.user("bob")
        let carol = try await fixture.user("carol")
        _ = try await fixture.befriend(alice.user, bob.user)
        let context = fixture.context()

        let published = try #require(try await fixture.answer("set", Self.publish(Self.devices, id: "current", Self.deviceList(7, 9),
                                                                                   options: ["pubsub#access_model": "open"]),
                                                              me: alice, context: context))
        #expect(published.child("publish")?.child("item")?["id"] == "current")
        // The event goes to Alice's streams and her friend's, from her bare JID, with the payload.
        let (event, users) = try #require(fixture.registry.forwarded.last)
        #expect(event.type == "headline" && event.from == "alice@chat.test" && Set(users) == [alice.user, bob.user])
        #expect(CapsFeatures.eventNode(stanza: event.stanza, type: event.type, children: event.children) == Self.devices)
        #expect(event.children.contains("<device id='9'/>"))

        // Open: Carol, a stranger, reads it too.
        for reader in [bob, carol] {
            let read = try #require(try await fixture.answer("get", Self.items(Self.devices), to: "alice@chat.test", me: reader, context: context))
            let list = try #require(read.child("items")?.child("item")?.child("list", namespace: "eu.siacs.conversations.axolotl"))
            #expect(list.elements.compactMap { $0["id"] } == ["7", "9"])
        }

        // A bundle without options: `presence`, so Bob reads it and Carol may not.
        let bundle = XMLElement("bundle", namespace: "eu.siacs.conversations.axolotl", [:], children: [
            XMLElement("signedPreKeyPublic", namespace: "eu.siacs.conversations.axolotl", ["signedPreKeyId": "1"], text: "BQ=="),
        ])
        _ = try await fixture.answer("set", Self.publish(Self.bundles, id: nil, bundle), me: alice, context: context)
        let read = try #require(try await fixture.answer("get", Self.items(Self.bundles), to: "alice@chat.test", me: bob, context: context))
        let item = try #require(read.child("items")?.child("item"))
        #expect(item["id"]?.isEmpty == false)
        #expect(item.child("bundle")?.child("signedPreKeyPublic")?.text == "BQ==")
        await #expect(throws: ProtocolError.self) {
            _ = try await fixture.answer("get", Self.items(Self.bundles), to: "alice@chat.test", me: carol, context: context)
        }
        // Nobody publishes to someone else's account.
        await #expect(throws: StanzaError.self) {
            _ = try await fixture.answer("set", Self.publish(Self.devices, id: "current", Self.deviceList(1)), to: "alice@chat.test",
                                         me: bob, context: context)
        }
    }

    @Test func maxItemsKeepsTheNewestAndTheLimitsHold() async throws {
        let fixture = try HandlerFixture()
        let alice = try await fixture.user("alice")
        let context = fixture.context()
        let node = "urn:xmpp:mood"
        for id in ["a", "b", "c"] {
            _ = try await fixture.answer("set", Self.publish(node, id: id, XMLElement(id, namespace: "urn:x"), options: ["pubsub#max_items": "2"]),
                                         me: alice, context: context)
        }
        let two = try #require(try await fixture.answer("get", Self.items(node), me: alice, context: context))
        #expect(two.child("items")?.elements.compactMap { $0["id"] } == ["c", "b"])
        let one = try #require(try await fixture.answer("get", Self.items(node, max: 1), me: alice, context: context))
        #expect(one.child("items")?.elements.compactMap { $0["id"] } == ["c"])
        // `max` is the server's limit (4 here), and so is any larger number.
        for id in ["d", "e", "f", "g", "h"] {
            _ = try await fixture.answer("set", Self.publish(node, id: id, XMLElement(id, namespace: "urn:x"), options: ["pubsub#max_items": "max"]),
                                         me: alice, context: context)
        }
        let capped = try #require(try await fixture.answer("get", Self.items(node), me: alice, context: context))
        #expect(capped.child("items")?.elements.compactMap { $0["id"] } == ["h", "g", "f", "e"])

        // A payload over 200 bytes is `not-acceptable` with `<payload-too-big/>`.
        let big = XMLElement("big", namespace: "urn:x", [:], text: String(repeating: "x", count: 200))
        do {
            _ = try await fixture.answer("set", Self.publish(node, id: "big", big), me: alice, context: context)
            Issue.record("a payload over the limit was kept")
        } catch let error as StanzaError {
            #expect(error.condition == "not-acceptable" && error.application?.name == "payload-too-big")
        }
        // A fourth node is over the limit of three; publishing to an existing one still works.
        for extra in ["urn:n1", "urn:n2"] {
            _ = try await fixture.answer("set", Self.publish(extra, id: "1", XMLElement("x", namespace: "urn:x")), me: alice, context: context)
        }
        await #expect(throws: ProtocolError.self) {
            _ = try await fixture.answer("set", Self.publish("urn:n3", id: "1", XMLElement("x", namespace: "urn:x")), me: alice, context: context)
        }
        _ = try await fixture.answer("set", Self.publish("urn:n2", id: "2", XMLElement("x", namespace: "urn:x")), me: alice, context: context)
        // An access model Parley cannot keep is a precondition not met.
        do {
            _ = try await fixture.answer("set", Self.publish(node, id: "r", XMLElement("r", namespace: "urn:x"), options: ["pubsub#access_model": "roster"]),
                                         me: alice, context: context)
            Issue.record("the roster access model was accepted")
        } catch let error as StanzaError {
            #expect(error.condition == "conflict" && error.application?.name == "precondition-not-met")
        }
    }

    @Test func retractConfigureAndDeleteAreTheOwnersAndAnnounced() async throws {
        let fixture = try HandlerFixture()
        let alice = try await fixture.user("alice")
        let bob = try await fixture.user("bob")
        _ = try await fixture.befriend(alice.user, bob.user)
        let context = fixture.context()
        let node = "http://jabber.org/protocol/tune"
        _ = try await fixture.answer("set", Self.publish(node, id: "t1", XMLElement("tune", namespace: node), options: ["pubsub#max_items": "3"]),
                                     me: alice, context: context)
        _ = try await fixture.answer("set", Self.publish(node, id: "t2", XMLElement("tune", namespace: node)), me: alice, context: context)

        // A retraction that asks for it is announced.
        let retract = Self.pubsub(XMLElement("retract", namespace: Namespace.pubsub, ["node": node, "notify": "true"], children: [
            XMLElement("item", namespace: Namespace.pubsub, ["id": "t1"]),
        ]))
        _ = try await fixture.answer("set", retract, me: alice, context: context)
        #expect(try #require(fixture.registry.forwarded.last).0.children.contains("<retract id='t1'/>"))
        await #expect(throws: ProtocolError.self) { _ = try await fixture.answer("set", retract, me: alice, context: context) }

        // The configuration form: read, then made the owner's alone (whitelist).
        let form = try #require(try await fixture.answer("get", Self.pubsub(XMLElement("configure", namespace: Namespace.pubsubOwner, ["node": node]), owner: true),
                                                         me: alice, context: context))
        let fields = try #require(form.child("configure").flatMap { DataForm(in: $0) })
        #expect(fields["pubsub#access_model"] == "presence" && fields["pubsub#max_items"] == "3")
        let submit = DataForm(type: "submit", fields: [("FORM_TYPE", [Namespace.pubsubNodeConfig]), ("pubsub#access_model", ["whitelist"])])
        _ = try await fixture.answer("set", Self.pubsub(XMLElement("configure", namespace: Namespace.pubsubOwner, ["node": node], children: [submit.element()]),
                                                        owner: true), me: alice, context: context)
        await #expect(throws: ProtocolError.self) {
            _ = try await fixture.answer("get", Self.items(node), to: "alice@chat.test", me: bob, context: context)
        }
        // Bob cannot configure or delete Alice's node.
        await #expect(throws: StanzaError.self) {
            _ = try await fixture.answer("set", Self.pubsub(XMLElement("delete", namespace: Namespace.pubsubOwner, ["node": node]), owner: true),
                                         to: "alice@chat.test", me: bob, context: context)
        }

        // Deleting it: the event (to Alice alone now) and the node is gone.
        _ = try await fixture.answer("set", Self.pubsub(XMLElement("delete", namespace: Namespace.pubsubOwner, ["node": node]), owner: true),
                                     me: alice, context: context)
        let (deleted, users) = try #require(fixture.registry.forwarded.last)
        #expect(users == [alice.user])
        #expect(CapsFeatures.eventNode(stanza: deleted.stanza, type: deleted.type, children: deleted.children) == node)
        #expect(deleted.children.contains("<delete node='\(node)'/>"))
        await #expect(throws: ProtocolError.self) { _ = try await fixture.answer("get", Self.items(node), me: alice, context: context) }
        // Creating a node that exists is a conflict; a new one is accepted.
        let create = Self.pubsub(XMLElement("create", namespace: Namespace.pubsub, ["node": "urn:new"]))
        #expect(try await fixture.answer("set", create, me: alice, context: context) == nil)
    }
}
