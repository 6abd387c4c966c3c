import Foundation
import ParleyCore
import ParleyProtocol
import ParleySQL
@testable import ParleySQLite
import TestSupport
import Testing

/// The search index's SQLite side: built for the messages a file held before version 15, and
/// searched through FTS5 newest first rather than by reading every message.
@Suite struct SQLiteSearchIndexTests {
    @Test func messagesStoredBeforeTheIndexAreFoundAfterTheMigration() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("parley.sqlite")
        do {
            let old = try SQLiteConnection(path: path)
            let steps = SQLiteStoreSchema.migrator.migrations.filter { $0.version < 15 }
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
        #expect(store.appliedMigrations == Array(15...SQLiteStoreSchema.migrator.latestVersion))
        let found = try await store.read { reader in
            (try reader.searchMessages(MessageSearchQuery(searcher: UserID(1), terms: ["old"], limit: 10)).map(\.id),
             try reader.searchMessages(MessageSearchQuery(searcher: UserID(1), terms: ["早上好"], limit: 10)).map(\.id))
        }
        #expect(found.0 == ["3", "2"] && found.1 == ["2"])
    }

    /// After sends, edits, reaction rewrites and recalls, FTS5 finds its index consistent and
    /// every message by its text now, none by its text before: changed when most of the 40
    /// are indexed (steps of 16; the last few are fewer than a step and wait), the rest
    /// indexed after a restart.
    @Test func theIndexMatchesTheMessagesAfterEveryKindOfChange() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("parley.sqlite")
        let store = try SQLiteStore(path: path, searchIndex: SearchIndexSettings(batchRows: 16, interval: .seconds(3600)))
        let ann = try await store.write { try $0.insertUser(NewUser(username: "ann", passwordHash: "h", phone: nil, createdAt: 1)) }
        let group = try await store.write { writer in
            try writer.insertConversation(NewConversation(kind: .group, name: "g", ownerID: ann.id, createdAt: 1))
        }
        let sent = try await store.write { writer in
            try (0..<40).map { index in
                try writer.appendMessage(NewMessage(conversationID: group.id, sender: ann.id, clientID: "c\(index)", kind: .text,
                                                    text: "message \(index) 第\(index)条消息", createdAt: 10))
            }
        }
        try await store.write { writer in
            for (index, message) in sent.enumerated() {
                var changed = message
                switch index % 3 {
                case 0: changed.text = "edited \(index) 改过了"
                case 1: changed.text = nil
                    changed.recalled = RecallMark(by: ann.id, at: 20)
                default: changed.reactions = [Reaction(emoji: "👍", users: [ann.id])]
                }
                try writer.replaceMessage(changed)
            }
        }
        store.close()
        let reopened = try SQLiteStore(path: path, searchIndex: SearchIndexSettings(batchRows: 16, interval: .zero))
        let watermark = try SQLiteConnection(path: path, flags: [.readOnly])
        try await eventually("the rest to be indexed") {
            (try? watermark.queryFirst("SELECT indexed_through = (SELECT max(id) FROM messages) FROM search_index_watermark") {
                try $0.bool(0)
            }) == true
        }
        reopened.close()
        let connection = try SQLiteConnection(path: path)
        // The index's own consistency (not `rank = 1`, which compares with every row of
        // `messages` and so counts the notices and recalled messages left out as missing).
        try connection.run("INSERT INTO messages_search (messages_search) VALUES ('integrity-check')")
        let indexed = try connection.query("SELECT rowid FROM messages_search WHERE messages_search MATCH '\"改过了\"'") { try $0.int64(0) }
        #expect(indexed.count == 14)
        #expect(try connection.query("SELECT rowid FROM messages_search WHERE messages_search MATCH '\"条消息\"'") { try $0.int64(0) }.count == 13)
    }

    /// The literals reach `json_each` as they were, whatever characters they hold.
    @Test func literalsRoundTripThroughJSONEach() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let connection = try SQLiteConnection(path: directory.file("json.sqlite"))
        let literals = ["北京", "a\"b", "c\\d", "\u{1}x\n", "𠀀"]
        let values = try connection.query("SELECT value FROM json_each(?) ORDER BY key", SQLiteSearchSQL.literals(literals)) { try $0.string(0) }
        #expect(values == literals)
        #expect(SQLiteSearchSQL.literals([]) == nil)
    }

    /// The indexed statements start from the FTS5 table (its rowid order is the page order),
    /// the walks from an index in page order, and none reads all of `messages`.
    @Test func searchesWithWordsReadTheFullTextIndex() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let connection = try SQLiteConnection(path: directory.file("plan.sqlite"))
        _ = try SQLiteStoreSchema.migrator.migrate(connection)
        for sql in [SQLiteSearchSQL.indexedEverywhere, SQLiteSearchSQL.indexedInConversation, SQLiteSearchSQL.recentInConversation,
                    SQLiteSearchSQL.recentEverywhere, SQLiteSearchSQL.walkEverywhere, SQLiteSearchSQL.walkInConversation] {
            let plan = try connection.query("EXPLAIN QUERY PLAN " + sql, "\"abc\"", Int64.max, nil, 1, 1, 10,
                                            SQLiteSearchSQL.literals(["北京"])) { try $0.string(3) }
            #expect(plan.contains { $0.contains("VIRTUAL TABLE") || $0.contains("USING INDEX") || $0.contains("USING INTEGER PRIMARY KEY") },
                    "\(plan)")
            #expect(!plan.contains { $0.hasPrefix("SCAN m") || $0 == "SCAN messages" }, "\(plan)")
            // Short words across all of a user's conversations, once the walk has not filled
            // the page, read those conversations' messages below the walk and sort them
            // (docs/operations.md says so); the rest, the walks included, come out in page
            // order, so they stop where their caller does.
            #expect(!plan.contains { $0.contains("TEMP B-TREE") } || sql == SQLiteSearchSQL.recentEverywhere, "\(plan)")
        }
    }
}
