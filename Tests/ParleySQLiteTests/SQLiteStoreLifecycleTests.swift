import Foundation
import ParleyCore
import ParleySQL
@testable import ParleySQLite
import TestSupport
import Testing

/// Opening, migrating, closing and reopening.
@Suite struct SQLiteStoreLifecycleTests {
    @Test func aNewFileIsMigratedOnceAndKeepsItsDataAcrossReopening() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("parley.sqlite")

        let first = try SQLiteStore(path: path)
        #expect(first.appliedMigrations == SQLiteStoreSchema.migrator.migrations.map(\.version))
        let mei = try await first.write { writer -> StoredUser in
            var user = try writer.insertUser(newUser("Mei", phone: "+111"))
            user.hobbies = ["go", "tea, green"]
            try writer.updateUser(user)
            return user
        }
        first.close()

        let inspector = try SQLiteConnection(path: path, flags: [.readOnly])
        #expect(try inspector.userVersion() == SQLiteStoreSchema.migrator.latestVersion)
        #expect(try inspector.journalMode() == .wal)
        let tables = try inspector.query("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name") { try $0.string(0) }
        #expect(tables == ["admins", "audit_log", "blocks", "conversation_bans", "conversation_mutes", "conversations", "delivery_markers", "friend_requests",
                          "friendships", "group_invites", "group_join_requests", "group_mutes", "group_policies",
                          "hidden_messages", "last_seen", "media", "media_uses", "members", "message_id_floor", "message_mentions", "messages", "messages_search",
                          "messages_search_config", "messages_search_data", "messages_search_docsize", "messages_search_idx",
                          "migration_notes", "notification_settings", "pep_items", "pinned_messages", "privacy_settings", "push_targets",
                          "reports", "scram_credentials", "search_index_watermark", "sessions", "sms_challenges", "sms_sends", "sqlite_sequence", "suspensions",
                          "swipes", "unfindable_users",
                          "username_quarantine", "users", "xmpp_private_items"])

        let second = try SQLiteStore(path: path)
        defer { second.close() }
        #expect(second.appliedMigrations == [])
        #expect(try await second.read { try $0.user(username: "mei") } == mei)
        #expect(try inspector.userVersion() == SQLiteStoreSchema.migrator.latestVersion)
    }

    @Test func aVersion1DatabaseIsMigratedToTheLatestAndKeepsItsUsers() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("parley.sqlite")
        // A file as the previous release left it: migration 1 only, with a user in it.
        do {
            let old = try SQLiteConnection(path: path)
            let applied = try SQLiteMigrator([SQLiteMigration(version: 1, sql: SQLiteStoreSchema.accounts)]).migrate(old)
            #expect(applied == [1])
            try old.run("INSERT INTO users (username, username_key, password_hash, created_at) VALUES ('Mei', 'mei', 'h', 7)")
        }

        let store = try SQLiteStore(path: path)
        defer { store.close() }
        #expect(store.appliedMigrations == Array(2...SQLiteStoreSchema.migrator.latestVersion))
        let mei = try #require(try await store.read { try $0.user(username: "mei") })
        #expect(mei.username == "Mei" && mei.passwordHash == "h" && mei.createdAt == 7)
        #expect(try SQLiteConnection(path: path, flags: [.readOnly]).userVersion() == SQLiteStoreSchema.migrator.latestVersion)

        // And the new tables work with the old rows.
        let bob = try await store.write { try $0.insertUser(newUser("bob")) }
        let chat = try await store.write { writer in
            try writer.insertConversation(NewConversation(kind: .user, userA: mei.id, userB: bob.id, createdAt: 8))
        }
        let sent = try await store.write { writer in
            try writer.appendMessage(NewMessage(conversationID: chat.id, sender: mei.id, clientID: "c1", kind: .text,
                                                text: "hi", createdAt: 9))
        }
        #expect(sent.seq == 1)
    }

    @Test func aDatabaseFromANewerBuildIsRefused() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("parley.sqlite")
        try SQLiteConnection(path: path).setUserVersion(99)
        let error = try #require(throws: StoreError.self) { try SQLiteStore(path: path) }
        guard case .failure(let message) = error else {
            Issue.record("expected a failure, got \(error)")
            return
        }
        #expect(message.contains("99"))
    }

    @Test func aFileThatIsNotADatabaseIsRefused() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("parley.sqlite")
        try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: path))
        #expect(throws: StoreError.self) { try SQLiteStore(path: path) }
        #expect(throws: StoreError.self) { try SQLiteStore(path: directory.file("missing/parley.sqlite")) }
    }

    @Test func closeLetsQueuedWritesFinishThenRefusesWork() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("parley.sqlite")
        let store = try SQLiteStore(path: path)

        let (gate, held) = try await WriterGate.hold(store)
        let writes = (0..<10).map { index in
            Task { try await store.write { try $0.insertUser(newUser("queued\(index)")) } }
        }
        try await eventually("10 writes to queue up") { store.queuedWriteCount == 10 }
        // close() blocks until the queue drains, so it runs on a thread of its own.
        let closed = BlockingCall { store.close() }
        gate.open()
        try await held.value
        for write in writes { _ = try await write.value }
        await closed.finished()

        // Every connection is closed: the writer, last, folded the WAL back into the file.
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        await #expect(throws: StoreError.self) { try await store.write { try $0.insertUser(newUser("late")) } }
        await #expect(throws: StoreError.self) { try await store.read { try $0.user(username: "queued0") } }
        store.close()

        let reopened = try SQLiteStore(path: path)
        defer { reopened.close() }
        let found = try await reopened.read { reader in try (0..<10).compactMap { try reader.user(username: "queued\($0)") } }
        #expect(found.count == 10)
    }

    @Test func aStoreDroppedWithoutCloseStillStopsAndClosesTheFile() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("parley.sqlite")
        try await openWriteAndDrop(path)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))

        let reopened = try SQLiteStore(path: path)
        defer { reopened.close() }
        #expect(try await reopened.read { try $0.user(username: "dropped") } != nil)
    }

    private func openWriteAndDrop(_ path: String) async throws {
        let store = try SQLiteStore(path: path, readers: 1)
        _ = try await store.write { try $0.insertUser(newUser("dropped")) }
    }
}

/// Runs a blocking call on a thread of its own, so the test's async tasks keep running.
private final class BlockingCall: Sendable {
    private let done = DispatchSemaphore(value: 0)

    init(_ body: @escaping @Sendable () -> Void) {
        let thread = Thread { [done] in
            body()
            done.signal()
        }
        thread.start()
    }

    func finished() async {
        while done.wait(timeout: .now()) != .success {
            try? await Task.sleep(for: .milliseconds(1))
        }
    }
}
