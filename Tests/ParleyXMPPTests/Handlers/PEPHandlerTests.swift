import CoreTestSupport
import ParleyCore
import ParleyNet
import ParleyProtocol
import Testing
@testable import ParleyXMPP

@Suite struct PEPHandlerTests {
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
        #expect(published.child("publish")?.child("item")?["id"] == PEPHandler.itemID)
        #expect(try await fixture.services.accounts.profile(id: alice.user).nickname == "Ally")
        // The native clients hear of it; the friends' and her own streams get the event.
        #expect(fixture.delivery.events.contains { if case .meUpdated(let account) = $0.event { account.profile.nickname == "Ally" } else { false } })
        let (event, users) = try await fixture.forwarded { $0.children.contains("Ally") }
        #expect(event.type == "headline" && event.from == "alice@chat.test" && Set(users) == [alice.user, bob.user])
        #expect(event.children.contains("<nick xmlns='http://jabber.org/protocol/nick'>Ally</nick>"))

        // Bob reads Alice's node: the nickname.
        let read = try #require(try await fixture.answer("get", Self.itemsQuery, to: "alice@chat.test", me: bob, context: context))
        #expect(read.child("items")?.child("item")?.child("nick", namespace: Namespace.nick)?.text == "Ally")

        // Retracting clears it.
        let retract = Self.pubsub(XMLElement("retract", namespace: Namespace.pubsub, ["node": Namespace.nick], children: [
            XMLElement("item", namespace: Namespace.pubsub, ["id": PEPHandler.itemID]),
        ]))
        _ = try await fixture.answer("set", retract, me: alice, context: context)
        #expect(try await fixture.services.accounts.profile(id: alice.user).nickname == nil)
    }

    @Test func aNativeNicknameChangeIsTheNickNodesEventAndOtherFieldsAreNone() async throws {
        let fixture = try HandlerFixture()
        let alice = try await fixture.user("alice")
        let bob = try await fixture.user("bob")
        _ = try await fixture.befriend(alice.user, bob.user)
        // As `me.update` does it: through the core, with no XMPP stream involved.
        _ = try await fixture.services.accounts.updateProfile(of: alice.user, with: ProfileUpdate(nickname: .set("Allie")))
        let (event, users) = try await fixture.forwarded { $0.children.contains("Allie") }
        #expect(event.type == "headline" && event.from == "alice@chat.test" && Set(users) == [alice.user, bob.user])
        #expect(CapsFeatures.eventNode(stanza: event.stanza, type: event.type, children: event.children) == Namespace.nick)
        // The signature is no PEP node: nothing more is handed over.
        let before = fixture.registry.forwarded.count
        _ = try await fixture.services.accounts.updateProfile(of: alice.user, with: ProfileUpdate(signature: .set("hi")))
        try await Task.sleep(for: .milliseconds(100))
        #expect(fixture.registry.forwarded.count == before)
    }

    @Test func otherNodesAndOthersNodesAreRefused() async throws {
        let fixture = try HandlerFixture()
        let alice = try await fixture.user("alice")
        let bob = try await fixture.user("bob")
        let context = fixture.context()
        // A node nobody published to does not exist.
        let other = Self.pubsub(XMLElement("items", namespace: Namespace.pubsub, ["node": "urn:xmpp:microblog:0"]))
        await #expect(throws: ProtocolError(.notFound, "no node urn:xmpp:microblog:0")) { _ = try await fixture.answer("get", other, me: alice, context: context) }
        // Publishing to someone else's node is not one's own profile.
        await #expect(throws: StanzaError.self) {
            _ = try await fixture.answer("set", Self.publish("x"), to: "bob@chat.test", me: alice, context: context)
        }
        #expect(try await fixture.services.accounts.profile(id: bob.user).nickname == nil)
    }

    @Test func pepBookmarksAreThePrivateStorageBookmarksBothWays() async throws {
        let fixture = try HandlerFixture()
        let alice = try await fixture.user("alice")
        let bob = try await fixture.user("bob")
        let context = fixture.context()
        // A XEP-0048 client stores a bookmark in private storage.
        let legacy = XMLElement("storage", namespace: Namespace.bookmarks, [:], children: [
            XMLElement("conference", namespace: Namespace.bookmarks, ["jid": "tea@conference.chat.test", "name": "Tea", "autojoin": "1"],
                       children: [XMLElement("nick", namespace: Namespace.bookmarks, [:], text: "ally")]),
        ])
        _ = try await fixture.answer("set", XMLElement("query", namespace: Namespace.privateStorage, [:], children: [legacy]),
                                     me: alice, context: context)

        // A XEP-0402 client reads it as an item.
        let itemsQuery = Self.pubsub(XMLElement("items", namespace: Namespace.pubsub, ["node": Namespace.bookmarks2]))
        let items = try #require(try await fixture.answer("get", itemsQuery, me: alice, context: context))
        let item = try #require(items.child("items")?.child("item"))
        #expect(item["id"] == "tea@conference.chat.test")
        let conference = try #require(item.child("conference", namespace: Namespace.bookmarks2))
        #expect(conference["name"] == "Tea" && conference["autojoin"] == "true" && conference.child("nick")?.text == "ally")

        // It publishes another: the XEP-0048 client sees both; the event goes to Alice only.
        let publish = Self.pubsub(XMLElement("publish", namespace: Namespace.pubsub, ["node": Namespace.bookmarks2], children: [
            XMLElement("item", namespace: Namespace.pubsub, ["id": "group-7@conference.chat.test"], children: [
                XMLElement("conference", namespace: Namespace.bookmarks2, ["name": "Climbing", "autojoin": "false"]),
            ]),
        ]))
        _ = try await fixture.answer("set", publish, me: alice, context: context)
        let stored = try #require(try await fixture.answer("get", XMLElement("query", namespace: Namespace.privateStorage, [:], children: [
            XMLElement("storage", namespace: Namespace.bookmarks),
        ]), me: alice, context: context))
        let jids = stored.child("storage")?.elements.compactMap { $0["jid"] }
        #expect(jids == ["tea@conference.chat.test", "group-7@conference.chat.test"])
        let (event, users) = try #require(fixture.registry.forwarded.last)
        #expect(users == [alice.user] && event.children.contains("Climbing"))

        // Retracting removes it from both.
        let retract = Self.pubsub(XMLElement("retract", namespace: Namespace.pubsub, ["node": Namespace.bookmarks2], children: [
            XMLElement("item", namespace: Namespace.pubsub, ["id": "tea@conference.chat.test"]),
        ]))
        _ = try await fixture.answer("set", retract, me: alice, context: context)
        let after = try #require(try await fixture.answer("get", itemsQuery, me: alice, context: context))
        #expect(after.child("items")?.elements.compactMap { $0["id"] } == ["group-7@conference.chat.test"])

        // Someone else's bookmarks are not theirs to read.
        await #expect(throws: StanzaError.self) { _ = try await fixture.answer("get", itemsQuery, to: "alice@chat.test", me: bob, context: context) }
    }

    /// A PNG header the sniffer accepts (16×8), with padding.
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
        + [0, 0, 0, 16, 0, 0, 0, 8, 8, 6, 0, 0, 0] + [UInt8](repeating: 0, count: 64)

    @Test func avatarDataPublishedIsTheProfileAvatarAndItsMetadataIsAnnounced() async throws {
        let fixture = try HandlerFixture()
        let alice = try await fixture.user("alice")
        let bob = try await fixture.user("bob")
        _ = try await fixture.befriend(alice.user, bob.user)
        let context = fixture.context()
        let sha1 = AvatarIDs.id(of: Self.png)
        #expect(sha1.count == 40)

        let data = Self.pubsub(XMLElement("publish", namespace: Namespace.pubsub, ["node": Namespace.avatarData], children: [
            XMLElement("item", namespace: Namespace.pubsub, ["id": sha1], children: [
                XMLElement("data", namespace: Namespace.avatarData, [:], text: Base64.encode(Self.png)),
            ]),
        ]))
        let published = try #require(try await fixture.answer("set", data, me: alice, context: context))
        #expect(published.child("publish")?.child("item")?["id"] == sha1)
        let avatar = try #require(try await fixture.services.accounts.profile(id: alice.user).avatar)
        #expect(avatar.hasPrefix("/v1/media/"))

        // Bob reads the metadata and the data of Alice's avatar.
        let metadataQuery = Self.pubsub(XMLElement("items", namespace: Namespace.pubsub, ["node": Namespace.avatarMetadata]))
        let metadata = try #require(try await fixture.answer("get", metadataQuery, to: "alice@chat.test", me: bob, context: context))
        let info = try #require(metadata.child("items")?.child("item")?.child("metadata")?.child("info"))
        #expect(info["id"] == sha1 && info["bytes"] == String(Self.png.count) && info["type"] == "image/png")
        #expect(info["url"] == "https://chat.test" + avatar)
        let dataQuery = Self.pubsub(XMLElement("items", namespace: Namespace.pubsub, ["node": Namespace.avatarData]))
        let read = try #require(try await fixture.answer("get", dataQuery, to: "alice@chat.test", me: bob, context: context))
        #expect(read.child("items")?.child("item")?.child("data").flatMap { Base64.decode($0.text) } == Self.png)

        // The avatar's change is announced to friends as metadata; publishing the metadata
        // is answered with its id, and an empty one removes the avatar.
        let (event, users) = try await fixture.forwarded { $0.children.contains(sha1) }
        #expect(Set(users) == [alice.user, bob.user] && event.children.contains(Namespace.avatarMetadata))
        let announce = Self.pubsub(XMLElement("publish", namespace: Namespace.pubsub, ["node": Namespace.avatarMetadata], children: [
            XMLElement("item", namespace: Namespace.pubsub, ["id": sha1], children: [Self.metadataElement(sha1)]),
        ]))
        let answered = try #require(try await fixture.answer("set", announce, me: alice, context: context))
        #expect(answered.child("publish")?.child("item")?["id"] == sha1)
        let clear = Self.pubsub(XMLElement("publish", namespace: Namespace.pubsub, ["node": Namespace.avatarMetadata], children: [
            XMLElement("item", namespace: Namespace.pubsub, ["id": "none"], children: [XMLElement("metadata", namespace: Namespace.avatarMetadata)]),
        ]))
        _ = try await fixture.answer("set", clear, me: alice, context: context)
        #expect(try await fixture.services.accounts.profile(id: alice.user).avatar == nil)

        // Bytes that are no image are refused, as by POST /v1/media.
        let junk = Self.pubsub(XMLElement("publish", namespace: Namespace.pubsub, ["node": Namespace.avatarData], children: [
            XMLElement("item", namespace: Namespace.pubsub, ["id": "x"], children: [
                XMLElement("data", namespace: Namespace.avatarData, [:], text: Base64.encode(Array("not an image".utf8))),
            ]),
        ]))
        await #expect(throws: (any Error).self) { _ = try await fixture.answer("set", junk, me: alice, context: context) }
    }

    static func metadataElement(_ id: String) -> XMLElement {
        XMLElement("metadata", namespace: Namespace.avatarMetadata, [:], children: [
            XMLElement("info", namespace: Namespace.avatarMetadata, ["id": id, "bytes": "93", "type": "image/png"]),
        ])
    }
}
