import ParleyCore
import ParleyProtocol
import Testing

/// Personal eventing nodes: items per user and node, newest first, replaced by id (and made
/// the newest), bounded by the node's `max_items`, its settings on every item, the last item
/// of many users' nodes at once, retraction, deletion, and gone with the user.
@Suite struct StoreContractPEPTests {
    private static let devices = "eu.siacs.conversations.axolotl.devicelist"

    private static func item(_ owner: UserID, _ node: String, _ id: String, _ payload: String) -> StoredPEPItem {
        StoredPEPItem(owner: owner, node: node, itemID: id, payload: payload)
    }

    @Test(arguments: StoreBackend.available) func itemsArePublishedReplacedBoundedAndReadNewestFirst(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let mei = try await store.write { try $0.insertUser(newUser("mei")) }
            let bob = try await store.write { try $0.insertUser(newUser("bob")) }
            let three = PEPNodeSettings(accessModel: .open, maxItems: 3)
            try await store.write { writer in
                for (id, text) in [("a", "<mood xmlns='urn:xmpp:mood'><happy/></mood>"), ("b", "<x xmlns='urn:x'>茶</x>"), ("c", "<y xmlns='urn:y'/>")] {
                    try writer.publishPEPItem(Self.item(mei.id, "urn:xmpp:mood", id, text), settings: three)
                }
                try writer.publishPEPItem(Self.item(bob.id, "urn:xmpp:mood", "a", "bob's"), settings: PEPNodeSettings())
            }
            #expect(try await store.read { try $0.pepItems(of: mei.id, node: "urn:xmpp:mood") }.map(\.itemID) == ["c", "b", "a"])
            #expect(try await store.read { try $0.pepItems(of: mei.id, node: "urn:xmpp:mood") }[1].payload == "<x xmlns='urn:x'>茶</x>")
            // Publishing an id again replaces it and makes it the newest; one more drops the oldest.
            try await store.write { writer in
                try writer.publishPEPItem(Self.item(mei.id, "urn:xmpp:mood", "a", "<mood xmlns='urn:xmpp:mood'><sad/></mood>"), settings: three)
                try writer.publishPEPItem(Self.item(mei.id, "urn:xmpp:mood", "d", "<d/>"), settings: three)
            }
            let items = try await store.read { try $0.pepItems(of: mei.id, node: "urn:xmpp:mood") }
            #expect(items.map(\.itemID) == ["d", "a", "c"])
            #expect(items[1].payload.contains("sad"))
            #expect(try await store.read { try $0.pepItems(of: bob.id, node: "urn:xmpp:mood") } == [Self.item(bob.id, "urn:xmpp:mood", "a", "bob's")])
            #expect(try await store.read { try $0.pepItems(of: mei.id, node: "urn:xmpp:tune") }.isEmpty)

            // Settings are the node's: a smaller max_items drops the oldest at once.
            #expect(try await store.read { try $0.pepNodes(of: mei.id) } == ["urn:xmpp:mood": three])
            let one = PEPNodeSettings(accessModel: .presence, maxItems: 1)
            #expect(try await store.write { try $0.configurePEPNode(of: mei.id, node: "urn:xmpp:mood", settings: one) })
            #expect(try await store.write { try $0.configurePEPNode(of: mei.id, node: "urn:xmpp:tune", settings: one) } == false)
            #expect(try await store.read { try $0.pepNodes(of: mei.id) } == ["urn:xmpp:mood": one])
            #expect(try await store.read { try $0.pepItems(of: mei.id, node: "urn:xmpp:mood") }.map(\.itemID) == ["d"])
        }
    }

    @Test(arguments: StoreBackend.available) func lastItemsRetractionDeletionAndErasure(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let mei = try await store.write { try $0.insertUser(newUser("mei")) }
            let bob = try await store.write { try $0.insertUser(newUser("bob")) }
            let ann = try await store.write { try $0.insertUser(newUser("ann")) }
            let open = PEPNodeSettings(accessModel: .open, maxItems: 2)
            try await store.write { writer in
                try writer.publishPEPItem(Self.item(mei.id, Self.devices, "current", "<list xmlns='eu.siacs.conversations.axolotl'><device id='1'/></list>"),
                                          settings: open)
                try writer.publishPEPItem(Self.item(mei.id, "urn:xmpp:mood", "m1", "<m1/>"), settings: PEPNodeSettings())
                try writer.publishPEPItem(Self.item(bob.id, Self.devices, "old", "<old/>"), settings: open)
                try writer.publishPEPItem(Self.item(bob.id, Self.devices, "new", "<new/>"), settings: open)
                try writer.publishPEPItem(Self.item(ann.id, Self.devices, "ann", "<ann/>"), settings: open)
            }
            // The newest of each asked node of each asked owner, with the node's settings.
            let last = try await store.read { try $0.pepLastItems(of: [mei.id, bob.id], nodes: [Self.devices, "urn:xmpp:tune"]) }
            #expect(Set(last.map { "\($0.0.owner.rawValue) \($0.0.itemID)" }) == ["\(mei.id.rawValue) current", "\(bob.id.rawValue) new"])
            #expect(last.allSatisfy { $0.1 == open })
            #expect(try await store.read { try $0.pepLastItems(of: [], nodes: [Self.devices]) }.isEmpty)

            #expect(try await store.write { try $0.retractPEPItem(of: bob.id, node: Self.devices, itemID: "new") })
            #expect(try await store.write { try $0.retractPEPItem(of: bob.id, node: Self.devices, itemID: "new") } == false)
            #expect(try await store.read { try $0.pepItems(of: bob.id, node: Self.devices) }.map(\.itemID) == ["old"])
            #expect(try await store.write { try $0.deletePEPNode(of: bob.id, node: Self.devices) })
            #expect(try await store.write { try $0.deletePEPNode(of: bob.id, node: Self.devices) } == false)
            #expect(try await store.read { try $0.pepNodes(of: bob.id) }.isEmpty)
            #expect(try await store.read { try $0.pepItems(of: ann.id, node: Self.devices) }.count == 1)

            // An erased account keeps no node.
            _ = try await store.write { try $0.eraseUser(mei.id, at: 5, erasingMessages: false) }
            #expect(try await store.read { try $0.pepNodes(of: mei.id) }.isEmpty)
            #expect(try await store.read { try $0.pepLastItems(of: [mei.id, ann.id], nodes: [Self.devices]) }.map { $0.0.itemID } == ["ann"])
        }
    }
}
