import Foundation
import ParleyCore
import ParleyProtocol
import ParleySQL
@testable import ParleySQLite
import TestSupport
import Testing

/// The search index's SQLite side: built for the messages a file held before version 10, and
/// searched through FTS5 newest first rather than by reading every message.
@Suite struct SQLiteSearchIndexTests {
    @Test func messagesStoredBeforeTheIndexAreFoundAfterTheMigration() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("parley.sqlite")
        do {
            let old = try SQLiteConnection(path: path)
            let steps = SQLiteStoreSchema.migrator.migrations.filter { $0.version < 10 }
            _ = try SQLiteMigrator(steps).migrate(old)
            try old.run("INSERT INTO users (id, username, username_key, password_hash, created_at) VALUES (1, 'ann', 'ann', 'h', 1)")
            try old.run("INSERT INTO conversations (id, kind, name, name_key, owner_id, created_at, last_activity_at, last_seq) VALUES (1, 'group', 'g', 'g', 1, 1, 1, 3)")
            try old.run("INSERT INTO members (conversation_id, user_id, role, joined_at, read_seq) VALUES (1, 1, 'owner', 1, 0)")
            try old.run("""
                INSERT INTO messages (id, conversation_id, seq, sender_id, client_id, kind, text, body, created_at) VALUES
                (1, 1, 1, NULL, NULL, 'system', 'old notice text', NULL, 2),
                (2, 1, 2, 1, 'a', 'text', '早上好 old morning', NULL, 3),
                (3, 1, 3, 1, 'b', 'text', 'old evening', NULL, 4)
                """)
        }
        let store = try SQLiteStore(path: path)
        defer { store.close() }
        #expect(store.appliedMigrations == [10])
        let found = try await store.read { reader in
            (try reader.searchMessages(MessageSearchQuery(searcher: UserID(1), terms: ["old"], limit: 10)).map(\.id),
             try reader.searchMessages(MessageSearchQuery(searcher: UserID(1), terms: ["早上好"], limit: 10)).map(\.id))
        }
        #expect(found.0 == ["3", "2"] && found.1 == ["2"])
    }

    /// The indexed statements start from the FTS5 table (its rowid order is the page order),
    /// never from a scan of `messages`.
    @Test func searchesWithWordsReadTheFullTextIndex() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let connection = try SQLiteConnection(path: directory.file("plan.sqlite"))
        _ = try SQLiteStoreSchema.migrator.migrate(connection)
        for sql in [SQLiteSearchSQL.indexedEverywhere, SQLiteSearchSQL.indexedInConversation, SQLiteSearchSQL.recentInConversation] {
            let plan = try connection.query("EXPLAIN QUERY PLAN " + sql, "\"abc\"", Int64.max, nil, 1, 1, 10) { try $0.string(3) }
            #expect(plan.contains { $0.contains("VIRTUAL TABLE") || $0.contains("USING INDEX") }, "\(plan)")
            #expect(!plan.contains { $0.hasPrefix("SCAN m") || $0 == "SCAN messages" }, "\(plan)")
            #expect(!plan.contains { $0.contains("TEMP B-TREE") }, "\(plan)")
        }
    }
}
