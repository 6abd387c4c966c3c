import ParleyCore
import ParleyProtocol
import ParleySQL
@testable import ParleySQLite
import Testing

/// Schema version 6: message ids come from the insert, not `AUTOINCREMENT`, and are still
/// never handed out twice (clients deduplicate by them).
@Suite struct SQLiteStoreMessageIDFloorTests {
    private func send(_ store: SQLiteStore, _ conversation: ConversationID, from sender: UserID, _ clientID: String) async throws -> Message {
        try await store.write { writer in
            try writer.appendMessage(NewMessage(conversationID: conversation, sender: sender, clientID: clientID, kind: .text,
                                                text: clientID, createdAt: 1), markingReadBySender: true)
        }
    }

    @Test func idsAreNeverReusedAfterTheNewestAreDeletedNorAcrossReopening() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("parley.sqlite")
        var store = try SQLiteStore(path: path)
        let ann = try await store.write { try $0.insertUser(newUser("ann")) }
        let bob = try await store.write { try $0.insertUser(newUser("bob")) }
        let chat = try await store.write { writer in
            try writer.insertConversation(NewConversation(kind: .user, userA: ann.id, userB: bob.id, createdAt: 1))
        }
        var ids: [Int64] = []
        for index in 1...3 {
            ids.append(try #require(Int64(try await send(store, chat.id, from: ann.id, "a\(index)").id)))
        }
        #expect(ids == [1, 2, 3])

        // The store cannot delete messages; a plain connection stands in for a future one.
        let admin = try SQLiteConnection(path: path)
        admin.busyTimeout = .seconds(5)
        try admin.setForeignKeysEnabled(true)
        #expect(try admin.run("DELETE FROM messages WHERE id = 3") == 1)
        let afterDelete = try await send(store, chat.id, from: bob.id, "b1")
        #expect(afterDelete.id == "4")

        // Across a restart, with the newest deleted again: both numbers are in the file.
        #expect(try admin.run("DELETE FROM messages WHERE id = 4") == 1)
        store.close()
        store = try SQLiteStore(path: path)
        defer { store.close() }
        #expect(try await send(store, chat.id, from: bob.id, "b2").id == "5")

        // Every message gone, even the whole conversation (its messages go with it).
        try admin.run("DELETE FROM friendships")
        #expect(try admin.run("DELETE FROM conversations WHERE id = ?", chat.id.rawValue) == 1)
        #expect(try admin.queryFirst("SELECT count(*) FROM messages") { try $0.int64(0) } == 0)
        let again = try await store.write { writer in
            try writer.insertConversation(NewConversation(kind: .user, userA: ann.id, userB: bob.id, createdAt: 2))
        }
        let notice = try await store.write { writer in
            try writer.appendMessage(NewMessage(conversationID: again.id, sender: nil, clientID: nil, kind: .system,
                                                system: SystemNotice(type: .friendAdded), createdAt: 2))
        }
        #expect(notice.id == "6" && notice.seq == 1)
        #expect(try admin.queryFirst("SELECT high FROM message_id_floor") { try $0.int64(0) } == 5)

        // Something else adds a message meanwhile (SQLite gives it the writer's next id, 7):
        // the writer's insert is refused by the primary key, rereads and takes 8.
        try admin.run("""
            INSERT INTO messages (conversation_id, seq, kind, created_at) VALUES (?, 100, 'system', 3)
            """, again.id.rawValue)
        #expect(try admin.queryFirst("SELECT max(id) FROM messages") { try $0.int64(0) } == 7)
        let afterOther = try await store.write { writer in
            try writer.appendMessage(NewMessage(conversationID: again.id, sender: nil, clientID: nil, kind: .system,
                                                system: SystemNotice(type: .friendAdded), createdAt: 4))
        }
        #expect(afterOther.id == "8")
        #expect(try await send(store, again.id, from: ann.id, "a9").id == "9")
    }
}
