import ParleyCore
import ParleyProtocol
import Testing

/// The XMPP gateway's per-user storage: items by key, each user's apart, replaced, removed,
/// read by key prefix (characters, not bytes), and gone with the user.
@Suite struct StoreContractXMPPPrivateTests {
    @Test(arguments: StoreBackend.available) func itemsAreKeptPerUserReplacedRemovedAndReadByPrefix(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let mei = try await store.write { try $0.insertUser(newUser("mei")) }
            let bob = try await store.write { try $0.insertUser(newUser("bob")) }
            let bookmarks = "<storage xmlns='storage:bookmarks'><conference jid='茶@conference.example' autojoin='true'/></storage>"
            try await store.write { writer in
                try writer.setXMPPPrivateItem(of: mei.id, key: "private storage storage:bookmarks", value: bookmarks)
                try writer.setXMPPPrivateItem(of: mei.id, key: "roster 7", value: "{\"groups\":[\"家\"]}")
                try writer.setXMPPPrivateItem(of: mei.id, key: "roster 8", value: "{\"groups\":[]}")
                try writer.setXMPPPrivateItem(of: bob.id, key: "roster 7", value: "bob's")
            }
            #expect(try await store.read { try $0.xmppPrivateItems(of: mei.id, keyPrefix: "private ") }
                == ["private storage storage:bookmarks": bookmarks])
            #expect(try await store.read { try $0.xmppPrivateItems(of: mei.id, keyPrefix: "roster ") }.keys.sorted() == ["roster 7", "roster 8"])
            #expect(try await store.read { try $0.xmppPrivateItems(of: mei.id, keyPrefix: "") }.count == 3)
            #expect(try await store.read { try $0.xmppPrivateItems(of: bob.id, keyPrefix: "roster 7") } == ["roster 7": "bob's"])
            // A prefix of other characters than ASCII counts characters on both stores.
            try await store.write { try $0.setXMPPPrivateItem(of: bob.id, key: "private 茶 urn:x", value: "<茶 xmlns='urn:x'/>") }
            #expect(try await store.read { try $0.xmppPrivateItems(of: bob.id, keyPrefix: "private 茶") }.keys.sorted() == ["private 茶 urn:x"])

            try await store.write { try $0.setXMPPPrivateItem(of: mei.id, key: "roster 7", value: "{\"name\":\"Bob\",\"groups\":[]}") }
            try await store.write { try $0.setXMPPPrivateItem(of: mei.id, key: "roster 8", value: nil) }
            try await store.write { try $0.setXMPPPrivateItem(of: mei.id, key: "never-set", value: nil) }
            #expect(try await store.read { try $0.xmppPrivateItems(of: mei.id, keyPrefix: "roster ") } == ["roster 7": "{\"name\":\"Bob\",\"groups\":[]}"])
            #expect(try await store.read { try $0.xmppPrivateItems(of: bob.id, keyPrefix: "roster ") } == ["roster 7": "bob's"])
        }
    }
}
