import ParleyCore
import ParleyProtocol
import TestSupport
import Testing

/// Who may see an upload (schema version 21 on SQLite, 20 on PostgreSQL): the conversations
/// it was sent to and whether an avatar made it public, on both stores.
@Suite struct StoreContractMediaAccessTests {
    private static func media(_ id: String, owner: UserID) -> StoredMedia {
        StoredMedia(id: id, ownerID: owner, type: .png, width: 1, height: 1, size: 10, createdAt: 1)
    }

    @Test(arguments: StoreBackend.available) func usesAreLinkedOnceAndAvatarsArePublic(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let people = try await insertUsers(store, ["ann", "bob"])
            let pair = try await insertDirectConversation(store, people[0].id, people[1].id).id
            let group = try await store.write { try $0.insertConversation(NewConversation(kind: .group, name: "club", createdAt: 2)) }.id
            #expect(try await store.read { try $0.mediaGrants(id: "pic") } == MediaGrants(isPublic: false, conversations: []))
            try await store.write { writer in
                try writer.insertMedia(Self.media("pic", owner: people[0].id))
                try writer.insertMedia(Self.media("face", owner: people[1].id))
                try writer.insertMedia(Self.media("draft", owner: people[0].id))
                try writer.linkMedia(id: "pic", to: pair, at: 5)
                try writer.linkMedia(id: "pic", to: pair, at: 6)      // a second message with it: one link
                try writer.linkMedia(id: "pic", to: group, at: 7)     // forwarded
                try writer.linkMedia(id: "nosuchupload", to: pair, at: 7)
                try writer.markMediaPublic(id: "face", at: 8)
                try writer.markMediaPublic(id: "nosuchupload", at: 8)
            }
            try await store.read { reader throws in
                let pic = try reader.mediaGrants(id: "pic")
                #expect(!pic.isPublic && Set(pic.conversations) == [pair, group] && pic.conversations.count == 2)
                #expect(try reader.mediaGrants(id: "face") == MediaGrants(isPublic: true, conversations: []))
                #expect(try reader.mediaGrants(id: "draft") == MediaGrants(isPublic: false, conversations: []))
                // A use of an unknown id grants nothing, should an upload take that id later.
                #expect(try reader.mediaGrants(id: "nosuchupload") == MediaGrants(isPublic: false, conversations: []))
            }
            // Linked or made public counts as used: the sweep of unused uploads leaves them.
            let unused = try await store.read { try $0.unreferencedMedia(createdBefore: 100, limit: 10) }.map(\.id)
            #expect(unused == ["draft"])
        }
    }
}
