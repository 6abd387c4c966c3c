import Foundation
import ParleyCore
import ParleyProtocol
import ParleySQL
@testable import ParleySQLite
import Testing

/// Version 7 cuts text stored before the limits in scalars and bytes, and says what it cut.
@Suite struct TextClippingMigrationTests {
    @Test func oversizedTextStoredByAnOlderBuildIsCutAndNoted() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("parley.sqlite")
        let bomb = "a" + String(repeating: "\u{0301}", count: 5000)
        let hobbies = "[" + (0..<12).map { "\"\(String(repeating: "h", count: $0 == 0 ? 30 : 3))\"" }.joined(separator: ",") + "]"
        do {
            let old = try SQLiteConnection(path: path)
            try SQLiteMigrator(Array(SQLiteStoreSchema.migrator.migrations.prefix(6))).migrate(old)
            try old.run("INSERT INTO users (id, username, username_key, nickname, signature, hobbies, created_at) VALUES (1, 'mei', 'mei', ?, ?, ?, 1)",
                        bomb, bomb, hobbies)
            try old.run("INSERT INTO users (id, username, username_key, nickname, created_at) VALUES (2, 'bob', 'bob', 'Bob', 1)")
            try old.run("INSERT INTO friend_requests (id, from_id, to_id, greeting, created_at) VALUES ('r', 1, 2, ?, 1)", bomb)
            try old.run("INSERT INTO conversations (id, kind, name, name_key, description, owner_id, last_seq, last_activity_at, created_at) VALUES (5, 'group', ?, ?, ?, 1, 1, 1, 1)",
                        String(repeating: "G", count: 40), String(repeating: "g", count: 40), bomb)
            try old.run("INSERT INTO messages (id, conversation_id, seq, sender_id, client_id, kind, text, created_at) VALUES (1, 5, 1, 1, ?, 'text', ?, 1)",
                        String(repeating: "c", count: 100), bomb)
        }

        let store = try SQLiteStore(path: path)
        defer { store.close() }
        #expect(store.appliedMigrations == Array(7...SQLiteStoreSchema.migrator.latestVersion))
        #expect(store.migrationNotes.count == 8, "\(store.migrationNotes)")
        #expect(store.migrationNotes.contains("1 nicknames cut to 32 characters"))

        let limits = TextLimits()
        let mei = try #require(try await store.read { try $0.user(id: UserID(1)) })
        try limits.validate(try #require(mei.nickname), as: .nickname)
        try limits.validate(try #require(mei.signature), as: .signature)
        #expect(mei.hobbies.count == 10 && mei.hobbies[0] == String(repeating: "h", count: 24) && mei.hobbies[1] == "hhh")
        #expect(try await store.read { try $0.user(id: UserID(2)) }?.nickname == "Bob", "values within the limits stay")
        let request = try #require(try await store.read { try $0.friendRequests(to: UserID(2)) }.first)
        try limits.validate(try #require(request.greeting), as: .greeting)
        let group = try #require(try await store.read { try $0.conversation(id: ConversationID(5)) })
        try limits.validate(try #require(group.name), as: .name)
        #expect(group.name?.hasSuffix("~5") == true)
        try limits.validate(try #require(group.description), as: .description)
        let message = try #require(try await store.read { try $0.message(in: ConversationID(5), seq: 1) })
        try limits.validate(try #require(message.text), as: .text)
        #expect(message.clientId == nil)
    }
}
