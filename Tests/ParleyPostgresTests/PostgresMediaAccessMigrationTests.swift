import ParleyCore
@testable import ParleyPostgres
import ParleyProtocol
import Testing

/// PostgreSQL's version 21 (SQLite's 23): uploads already sent are linked to the
/// conversations of the messages carrying them, uploads an avatar uses become public, and an
/// upload never sent stays its owner's alone.
@Suite(.enabled(if: PostgresTestServer.isAvailable, PostgresTestServer.unavailableReason))
struct PostgresMediaAccessMigrationTests {
    @Test func sentUploadsAreLinkedAndAvatarsMarkedPublic() async throws {
        try await withPostgresDatabase { database in
            do {
                let old = try PostgresConnection(connectionString: database)
                _ = try PostgresMigrator(PostgresStoreSchema.migrator.migrations.filter { $0.version <= 20 }).migrate(old)
                _ = try old.query("INSERT INTO users (id, username, username_key, avatar, created_at) VALUES (1, 'ann', 'ann', '/v1/media/face', 1)", [])
                _ = try old.query("""
                    INSERT INTO conversations (id, kind, name, name_key, avatar, owner_id, created_at, last_activity_at, last_seq) VALUES
                    (1, 'group', 'g', 'g', '/v1/media/logo', 1, 1, 1, 3), (2, 'group', 'h', 'h', NULL, 1, 1, 1, 1)
                    """, [])
                for id in ["face", "logo", "pic", "doc", "draft"] {
                    _ = try old.query("INSERT INTO media (id, owner_id, type, width, height, size, created_at) VALUES ($1, 1, 'png', 1, 1, 10, 1)",
                                      [id.postgresValue])
                }
                _ = try old.query("""
                    INSERT INTO messages (id, conversation_id, seq, sender_id, client_id, kind, text, body, created_at) VALUES
                    (1, 1, 1, 1, 'a', 'image', NULL, '{"image":{"mediaId":"pic","url":"/v1/media/pic","width":1,"height":1}}', 2),
                    (2, 1, 2, 1, 'b', 'file', NULL, '{"file":{"mediaId":"doc","url":"/v1/media/doc","name":"m.pdf","size":10,"type":"application/pdf"}}', 3),
                    (3, 1, 3, 1, 'c', 'text', 'hello', NULL, 4),
                    (4, 2, 1, 1, 'd', 'image', NULL, '{"image":{"mediaId":"pic","url":"/v1/media/pic","width":1,"height":1},"forwarded":true}', 5)
                    """, [])
            }
            let store = try PostgresStore(connectionString: database, readers: 1, writers: 1)
            defer { store.close() }
            #expect(store.appliedMigrations == Array(21...(PostgresStoreSchema.migrator.migrations.map(\.version).max() ?? 0)))
            try await store.read { reader throws in
                let pic = try reader.mediaGrants(id: "pic")
                #expect(!pic.isPublic && Set(pic.conversations) == [ConversationID(1), ConversationID(2)])
                #expect(try reader.mediaGrants(id: "doc") == MediaGrants(isPublic: false, conversations: [ConversationID(1)]))
                #expect(try reader.mediaGrants(id: "face") == MediaGrants(isPublic: true, conversations: []))
                #expect(try reader.mediaGrants(id: "logo") == MediaGrants(isPublic: true, conversations: []))
                #expect(try reader.mediaGrants(id: "draft") == MediaGrants(isPublic: false, conversations: []))
            }
        }
    }
}
