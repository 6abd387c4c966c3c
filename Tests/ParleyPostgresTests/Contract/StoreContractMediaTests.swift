import ParleyCore
import ParleyProtocol
import Testing

/// Upload usage per user and the uploads nobody used, on both stores.
@Suite struct StoreContractMediaTests {
    static func media(_ id: String, owner: UserID, size: Int, at time: Int64) -> StoredMedia {
        StoredMedia(id: id, ownerID: owner, type: .png, width: 1, height: 1, size: size, createdAt: time)
    }

    @Test(arguments: StoreBackend.available) func usageCountsHeldAndRecentBytesPerOwner(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let mei = try await store.write { try $0.insertUser(newUser("mei")) }.id
            let bob = try await store.write { try $0.insertUser(newUser("bob")) }.id
            #expect(try await store.read { try $0.mediaUsage(of: mei, since: 0) } == MediaUsage(heldBytes: 0, recentBytes: 0, oldestRecentAt: nil))
            try await store.write { writer in
                try writer.insertMedia(Self.media("a", owner: mei, size: 100, at: 10))
                try writer.insertMedia(Self.media("b", owner: mei, size: 200, at: 20))
                try writer.insertMedia(Self.media("c", owner: mei, size: 400, at: 30))
                try writer.insertMedia(Self.media("d", owner: bob, size: 800, at: 30))
            }
            #expect(try await store.read { try $0.mediaUsage(of: mei, since: 20) } == MediaUsage(heldBytes: 700, recentBytes: 600, oldestRecentAt: 20))
            #expect(try await store.read { try $0.mediaUsage(of: bob, since: 31) } == MediaUsage(heldBytes: 800, recentBytes: 0, oldestRecentAt: nil))
        }
    }

    @Test(arguments: StoreBackend.available) func onlyOldUploadsNobodyUsedAreOfferedAndDeleted(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let mei = try await store.write { try $0.insertUser(newUser("mei")) }.id
            try await store.write { writer in
                try writer.insertMedia(Self.media("old-unused", owner: mei, size: 1, at: 10))
                try writer.insertMedia(Self.media("old-used", owner: mei, size: 1, at: 11))
                try writer.insertMedia(Self.media("new-unused", owner: mei, size: 1, at: 50))
                try writer.markMediaReferenced(id: "old-used", at: 12)
                try writer.markMediaReferenced(id: "no-such-upload", at: 12)
            }
            let offered = try await store.read { try $0.unreferencedMedia(createdBefore: 40, limit: 10) }.map(\.id)
            #expect(offered == ["old-unused"])
            // A use between the offer and the delete keeps the upload.
            let deleted = try await store.write { writer -> [Bool] in
                try writer.markMediaReferenced(id: "new-unused", at: 60)
                return [try writer.deleteUnreferencedMedia(id: "old-unused"), try writer.deleteUnreferencedMedia(id: "new-unused"),
                        try writer.deleteUnreferencedMedia(id: "old-used")]
            }
            #expect(deleted == [true, false, false])
            #expect(try await store.read { try $0.media(id: "old-unused") } == nil)
            #expect(try await store.read { try $0.media(id: "old-used") } != nil)
        }
    }
}
