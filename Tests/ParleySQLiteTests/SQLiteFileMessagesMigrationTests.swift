import ParleySQL
@testable import ParleySQLite
import Testing

/// Schema version 18: `messages` rebuilt to take `kind = 'file'` and `kind = 'voice'`,
/// keeping its rows, the search index and every trigger.
@Suite struct SQLiteFileMessagesMigrationTests {
    @Test func aVersion17DatabaseKeepsItsMessagesAndSearchAndTakesFilesAndVoice() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("parley.sqlite")
        do {
            let old = try SQLiteConnection(path: path)
            try old.setForeignKeysEnabled(true)
            let previous = SQLiteMigrator(SQLiteStoreSchema.migrator.migrations.filter { $0.version <= 17 })
            #expect(try previous.migrate(old) == Array(1...17))
            try old.run("INSERT INTO users (id, username, username_key, created_at) VALUES (1, 'Ann', 'ann', 1), (2, 'Bob', 'bob', 1)")
            try old.run("""
                INSERT INTO conversations (id, kind, user_a, user_b, last_seq, last_activity_at, created_at)
                VALUES (1, 'user', 1, 2, 2, 20, 1)
                """)
            try old.run("""
                INSERT INTO messages (id, conversation_id, seq, sender_id, client_id, kind, text, body, created_at) VALUES
                    (1, 1, 1, 1, 'a1', 'text', 'walnut bread recipe', NULL, 10),
                    (2, 1, 2, 2, 'b1', 'text', 'thanks', NULL, 20)
                """)
            #expect(throws: SQLiteError.self) {
                try old.run("INSERT INTO messages (id, conversation_id, seq, sender_id, client_id, kind, created_at) VALUES (3, 1, 3, 1, 'a2', 'file', 30)")
            }
            #expect(throws: SQLiteError.self) {
                try old.run("INSERT INTO messages (id, conversation_id, seq, sender_id, client_id, kind, created_at) VALUES (3, 1, 3, 1, 'a2', 'voice', 30)")
            }
        }
        let migrated = try SQLiteConnection(path: path)
        try migrated.setForeignKeysEnabled(true)
        #expect(try SQLiteStoreSchema.migrator.migrate(migrated) == Array(18...SQLiteStoreSchema.migrator.latestVersion))
        #expect(try migrated.query("SELECT id FROM messages ORDER BY id") { try $0.int64(0) } == [1, 2])
        // The search index still finds the old text, and follows new and deleted rows.
        let search = "SELECT rowid FROM messages_search WHERE messages_search MATCH ? ORDER BY rowid"
        #expect(try migrated.query(search, "walnut") { try $0.int64(0) } == [1])
        try migrated.run("""
            INSERT INTO messages (id, conversation_id, seq, sender_id, client_id, kind, text, body, created_at)
            VALUES (3, 1, 3, 1, 'a2', 'file', 'walnut photos', '{"file":{"mediaId":"m","url":"/v1/media/m","name":"a.zip","size":1,"type":"application/zip"}}', 30)
            """)
        // Since version 21 the store's own send statements index a new message (no trigger
        // does): a raw insert is indexed by hand, as the writer would.
        try migrated.run("INSERT INTO messages_search (rowid, text) VALUES (3, 'walnut photos')")
        #expect(try migrated.query(search, "walnut") { try $0.int64(0) } == [1, 3])
        try migrated.run("DELETE FROM messages WHERE id = 1")
        #expect(try migrated.query(search, "walnut") { try $0.int64(0) } == [3])
        #expect(try migrated.queryFirst("SELECT high FROM message_id_floor") { try $0.int64(0) } == 1)
        #expect(throws: SQLiteError.self) {
            try migrated.run("INSERT INTO messages (id, conversation_id, seq, sender_id, client_id, kind, created_at) VALUES (4, 1, 4, 1, 'a3', 'voicemail', 40)")
        }
        try migrated.run("""
            INSERT INTO messages (id, conversation_id, seq, sender_id, client_id, kind, body, created_at)
            VALUES (5, 1, 4, 1, 'a4', 'voice', '{"voice":{"mediaId":"v","url":"/v1/media/v","type":"audio/ogg","durationMs":900,"waveform":[]}}', 50)
            """)
        #expect(try migrated.query("SELECT kind FROM messages ORDER BY id") { try $0.string(0) } == ["text", "file", "voice"])
        let triggers = try migrated.query("SELECT name FROM sqlite_schema WHERE type = 'trigger' AND tbl_name = 'messages' ORDER BY name") { try $0.string(0) }
        #expect(triggers == ["messages_raise_id_floor", "messages_search_delete", "messages_search_update"])
    }
}
