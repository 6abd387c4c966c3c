import ParleyCore
import ParleyProtocol
import ParleySQL
@testable import ParleySQLite
import Testing

/// Schema version 6: `messages` rebuilt with its kind check as comparisons instead
/// of an `IN` list, and its ids given by the insert instead of `AUTOINCREMENT`, on
/// databases old and new.
@Suite struct SQLiteStoreMessageKindCheckTests {
    /// SQLite's extended code for a failed `CHECK` (`SQLITE_CONSTRAINT_CHECK`).
    private static let checkFailed: Int32 = 275

    @Test func aVersion5DatabaseWithMessagesIsRebuiltKeepingEveryRowAndItsIDCounter() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("parley.sqlite")
        // A file as the previous release left it: versions 1 to 5, two people, their 1:1
        // conversation with a text, an image and a notice, and a fourth message (the newest)
        // deleted, so the id counter is ahead of the largest id left.
        do {
            let old = try SQLiteConnection(path: path)
            try old.setForeignKeysEnabled(true)
            let previous = SQLiteMigrator(SQLiteStoreSchema.migrator.migrations.filter { $0.version <= 5 })
            #expect(try previous.migrate(old) == [1, 2, 3, 4, 5])
            try old.run("INSERT INTO users (id, username, username_key, created_at) VALUES (1, 'Ann', 'ann', 1), (2, 'Bob', 'bob', 1)")
            try old.run("""
                INSERT INTO conversations (id, kind, user_a, user_b, last_seq, last_activity_at, created_at)
                VALUES (1, 'user', 1, 2, 3, 40, 1)
                """)
            try old.run("INSERT INTO members (conversation_id, user_id, role, joined_at, read_seq) VALUES (1, 1, 'member', 1, 3), (1, 2, 'member', 1, 1)")
            try old.run("""
                INSERT INTO messages (conversation_id, seq, sender_id, client_id, kind, text, body, created_at) VALUES
                    (1, 1, 1, 'a1', 'text', 'hello', NULL, 10),
                    (1, 2, 2, 'b1', 'image', NULL, '{"image":{"mediaId":"m1","url":"/media/m1","width":2,"height":3}}', 20),
                    (1, 3, NULL, NULL, 'system', NULL, '{"system":{"type":"friend_added"}}', 30),
                    (1, 4, 1, 'a2', 'text', 'deleted', NULL, 40)
                """)
            try old.run("DELETE FROM messages WHERE seq = 4")
            #expect(try old.queryFirst("SELECT seq FROM sqlite_sequence WHERE name = 'messages'") { try $0.int64(0) } == 4)
        }

        let store = try SQLiteStore(path: path)
        defer { store.close() }
        #expect(store.appliedMigrations == Array(6...SQLiteStoreSchema.migrator.latestVersion))

        let inspector = try SQLiteConnection(path: path, flags: [.readOnly])
        let schema = try #require(try inspector.queryFirst("SELECT sql FROM sqlite_schema WHERE name = 'messages'") { try $0.string(0) })
        #expect(schema.contains("kind = 'text' OR kind = 'image' OR kind = 'system'"))
        let indexes = try inspector.query("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'messages' ORDER BY name") {
            try $0.string(0)
        }
        #expect(indexes == ["messages_archive", "sqlite_autoindex_messages_1", "sqlite_autoindex_messages_2"])
        // The rebuild took the old id counter over as the floor of new ids.
        #expect(try inspector.query("SELECT name FROM sqlite_sequence WHERE name LIKE 'messages%'") { try $0.string(0) }.isEmpty)
        #expect(try inspector.queryFirst("SELECT high FROM message_id_floor") { try $0.int64(0) } == 4)

        // Every row as it was, readable through the store.
        let kept = try await store.read { reader in try (1...3).compactMap { try reader.message(in: ConversationID(1), seq: $0) } }
        #expect(kept.map(\.id) == ["1", "2", "3"])
        #expect(kept.map(\.kind) == [.text, .image, .system])
        #expect(kept[0].text == "hello" && kept[0].clientId == "a1" && kept[0].sender == UserID(1) && kept[0].createdAt == 10)
        #expect(kept[1].image?.mediaId == "m1" && kept[1].image?.width == 2)
        #expect(kept[2].sender == nil && kept[2].system?.type == .friendAdded)
        // The archive index came back: the gateway's count by time reads it.
        #expect(try await store.read { try $0.archivedMessageCount(in: ConversationID(1), start: 0, end: 100) } == 2)

        // New messages: the deleted newest id is not handed out again, seq follows last_seq,
        // and a refused client id takes no number.
        let next = try await store.write { writer in
            try writer.appendMessage(NewMessage(conversationID: ConversationID(1), sender: UserID(2), clientID: "b2",
                                                kind: .text, text: "after", createdAt: 50), markingReadBySender: true)
        }
        #expect(next.id == "5" && next.seq == 4)
        let refusedThenNext = try await store.write { writer -> (Bool, Message) in
            var refused = false
            do {
                _ = try writer.appendMessage(NewMessage(conversationID: ConversationID(1), sender: UserID(1), clientID: "a1",
                                                        kind: .text, text: "again", createdAt: 60))
            } catch StoreError.conflict("client_id") {
                refused = true
            }
            return (refused, try writer.appendMessage(NewMessage(conversationID: ConversationID(1), sender: UserID(1),
                                                                 clientID: "a3", kind: .text, text: "next", createdAt: 70)))
        }
        #expect(refusedThenNext.0)
        #expect(refusedThenNext.1.seq == 5 && refusedThenNext.1.id == "6")
    }

    @Test func theKindIsStillCheckedAndTheSendInsertBuildsNoTemporaryTable() async throws {
        try await withStore { store, directory in
            let ann = try await store.write { try $0.insertUser(newUser("ann")) }
            let bob = try await store.write { try $0.insertUser(newUser("bob")) }
            let chat = try await store.write { writer in
                try writer.insertConversation(NewConversation(kind: .user, userA: ann.id, userB: bob.id, createdAt: 1))
            }
            let admin = try SQLiteConnection(path: directory.file("parley.sqlite"))
            admin.busyTimeout = .seconds(5)
            for kind in ["text", "image", "system"] {
                #expect(try admin.run("INSERT INTO messages (conversation_id, seq, kind, created_at) VALUES (?, 0, ?, 1)",
                                      chat.id.rawValue, kind) == 1)
                try admin.run("DELETE FROM messages")
            }
            for kind in ["video", "Text", ""] {
                let refused = try #require(throws: SQLiteError.self) {
                    try admin.run("INSERT INTO messages (conversation_id, seq, kind, created_at) VALUES (?, 0, ?, 1)",
                                  chat.id.rawValue, kind)
                }
                #expect(refused.extendedCode == Self.checkFailed)
            }
            #expect(try admin.queryFirst("SELECT count(*) FROM messages") { try $0.int64(0) } == 0)

            // No `OpenEphemeral` in the insert's program: nothing in the table's checks
            // builds a temporary b-tree per row again.
            let program = try admin.query("EXPLAIN \(SendStatements.insertSQL)") { try $0.string(1) }
            #expect(program.contains("Insert"))
            #expect(!program.contains("OpenEphemeral"))
        }
    }
}
