import Foundation
import ParleyCore
import ParleyProtocol
import ParleySQL
@testable import ParleySQLite
import TestSupport
import Testing

/// Schema version 23: uploads already sent are linked to the conversations of the messages
/// that carry them (an image, a file, a voice note; a forward too), uploads an avatar uses
/// become public, and an upload never sent stays its owner's alone.
@Suite struct SQLiteMediaAccessMigrationTests {
    @Test func aVersion20DatabaseLinksWhatWasSentAndMarksAvatars() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("parley.sqlite")
        do {
            let old = try SQLiteConnection(path: path)
            _ = try SQLiteMigrator(SQLiteStoreSchema.migrator.migrations.filter { $0.version <= 20 }).migrate(old)
            try old.run("""
                INSERT INTO users (id, username, username_key, password_hash, avatar, created_at) VALUES
                (1, 'ann', 'ann', 'h', '/v1/media/face', 1), (2, 'bob', 'bob', 'h', 'https://example.com/b.png', 1)
                """)
            try old.run("""
                INSERT INTO conversations (id, kind, name, name_key, avatar, owner_id, created_at, last_activity_at, last_seq) VALUES
                (1, 'group', 'g', 'g', '/v1/media/logo', 1, 1, 1, 4), (2, 'group', 'h', 'h', NULL, 1, 1, 1, 1)
                """)
            for (id, type) in [("face", "png"), ("logo", "png"), ("pic", "jpeg"), ("doc", "application/pdf"), ("rec", "ogg"),
                               ("draft", "png")] {
                try old.run("INSERT INTO media (id, owner_id, type, width, height, size, created_at) VALUES (?, 1, ?, 1, 1, 10, 1)", id, type)
            }
            try old.run("""
                INSERT INTO messages (id, conversation_id, seq, sender_id, client_id, kind, text, body, created_at) VALUES
                (1, 1, 1, 1, 'a', 'image', NULL, '{"image":{"mediaId":"pic","url":"/v1/media/pic","width":1,"height":1}}', 2),
                (2, 1, 2, 1, 'b', 'file', 'minutes', '{"file":{"mediaId":"doc","url":"/v1/media/doc","name":"m.pdf","size":10,"type":"application/pdf"}}', 3),
                (3, 1, 3, 1, 'c', 'voice', NULL, '{"voice":{"mediaId":"rec","url":"/v1/media/rec","type":"audio/ogg","durationMs":1000,"waveform":[]}}', 4),
                (4, 1, 4, 1, 'd', 'text', 'hello', NULL, 5),
                (5, 2, 1, 1, 'e', 'image', NULL, '{"image":{"mediaId":"pic","url":"/v1/media/pic","width":1,"height":1},"forwarded":true}', 6),
                (6, 2, 2, 1, 'f', 'image', NULL, '{"image":{"mediaId":"gone","url":"/v1/media/gone","width":1,"height":1}}', 7)
                """)
        }
        let store = try SQLiteStore(path: path)
        defer { store.close() }
        #expect(store.appliedMigrations == Array(21...SQLiteStoreSchema.migrator.latestVersion))
        try await store.read { reader throws in
            let pic = try reader.mediaGrants(id: "pic")
            #expect(!pic.isPublic && Set(pic.conversations) == [ConversationID(1), ConversationID(2)])
            #expect(try reader.mediaGrants(id: "doc") == MediaGrants(isPublic: false, conversations: [ConversationID(1)]))
            #expect(try reader.mediaGrants(id: "rec") == MediaGrants(isPublic: false, conversations: [ConversationID(1)]))
            #expect(try reader.mediaGrants(id: "face") == MediaGrants(isPublic: true, conversations: []))
            #expect(try reader.mediaGrants(id: "logo") == MediaGrants(isPublic: true, conversations: []))
            #expect(try reader.mediaGrants(id: "draft") == MediaGrants(isPublic: false, conversations: []))
            // A message whose upload is gone links nothing.
            #expect(try reader.mediaGrants(id: "gone") == MediaGrants(isPublic: false, conversations: []))
        }
    }
}
