import Foundation
import ParleyCore
import ParleyProtocol
import ParleySQL
@testable import ParleySQLite
import TestSupport
import Testing

/// Schema versions 18 and 20: `messages` rebuilt so its kind may be `voice` (and `file`),
/// with the search index, its triggers, the archive index and the id floor as they were;
/// `media.duration_ms` added.
@Suite struct SQLiteVoiceMigrationTests {
    @Test func aVersion17DatabaseKeepsItsMessagesAndTheirSearchIndex() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("parley.sqlite")
        do {
            let old = try SQLiteConnection(path: path)
            _ = try SQLiteMigrator(SQLiteStoreSchema.migrator.migrations.filter { $0.version <= 17 }).migrate(old)
            try old.run("INSERT INTO users (id, username, username_key, password_hash, created_at) VALUES (1, 'ann', 'ann', 'h', 1)")
            try old.run("INSERT INTO conversations (id, kind, name, name_key, owner_id, created_at, last_activity_at, last_seq) VALUES (1, 'group', 'g', 'g', 1, 1, 1, 2)")
            try old.run("INSERT INTO members (conversation_id, user_id, role, joined_at, read_seq) VALUES (1, 1, 'owner', 1, 0)")
            try old.run("""
                INSERT INTO messages (id, conversation_id, seq, sender_id, client_id, kind, text, body, created_at) VALUES
                (7, 1, 1, 1, 'a', 'text', '语音消息 before voice', NULL, 3),
                (9, 1, 2, 1, 'b', 'text', 'deleted later', NULL, 4)
                """)
            try old.run("DELETE FROM messages WHERE id = 9")
            try old.run("INSERT INTO media (id, owner_id, type, width, height, size, created_at) VALUES ('p', 1, 'png', 1, 1, 10, 1)")
        }
        let store = try SQLiteStore(path: path)
        defer { store.close() }
        #expect(store.appliedMigrations == Array(18...SQLiteStoreSchema.migrator.latestVersion))
        let inspector = try SQLiteConnection(path: path, flags: [.readOnly])
        let triggers = try inspector.query("SELECT name FROM sqlite_schema WHERE type = 'trigger' AND tbl_name = 'messages' ORDER BY name") {
            try $0.string(0)
        }
        // Version 21: new text is indexed by the send's own statements, not by a trigger.
        #expect(triggers == ["messages_raise_id_floor", "messages_search_delete", "messages_search_update"])
        #expect(try inspector.queryFirst("SELECT high FROM message_id_floor") { try $0.int64(0) } == 9)
        // The old text is still found, a voice message is accepted, and new text is indexed.
        let voice = VoiceAttachment(mediaId: "v", url: "/v1/media/v", type: "audio/ogg", durationMs: 1_000, waveform: Array(repeating: 3, count: 64))
        let (sent, text) = try await store.write { writer in
            var new = NewMessage(conversationID: ConversationID(1), sender: UserID(1), clientID: "c", kind: .voice, createdAt: 5)
            new.voice = voice
            return (try writer.appendMessage(new),
                    try writer.appendMessage(NewMessage(conversationID: ConversationID(1), sender: UserID(1), clientID: "d",
                                                        kind: .text, text: "after the voice note", createdAt: 6)))
        }
        #expect(sent.id == "10" && sent.voice == voice && text.seq == sent.seq + 1)
        let found = try await store.read { reader in
            (try reader.searchMessages(MessageSearchQuery(searcher: UserID(1), terms: ["语音消息"], limit: 10)).map(\.id),
             try reader.searchMessages(MessageSearchQuery(searcher: UserID(1), terms: ["voice"], limit: 10)).map(\.id))
        }
        #expect(found.0 == ["7"] && found.1 == [text.id, "7"])
        #expect(try await store.read { try $0.media(id: "p") }?.durationMs == nil)
    }
}
