import ParleyCore
@testable import ParleyPostgres
import ParleyProtocol
import Testing

/// PostgreSQL's version 6 cuts text stored before the limits in scalars and bytes, as
/// SQLite's version 7 does, and says what it cut.
@Suite(.enabled(if: PostgresTestServer.isAvailable, PostgresTestServer.unavailableReason))
struct PostgresTextClippingTests {
    @Test func oversizedTextStoredByAnOlderBuildIsCutAndNoted() async throws {
        try await withPostgresDatabase { database in
            let bomb = "a" + String(repeating: "\u{0301}", count: 5000)
            do {
                let old = try PostgresConnection(connectionString: database)
                _ = try PostgresMigrator(Array(PostgresStoreSchema.migrator.migrations.prefix(5))).migrate(old)
                let hobbies = "[" + (0..<12).map { "\"\(String(repeating: "h", count: $0 == 0 ? 30 : 3))\"" }.joined(separator: ",") + "]"
                _ = try old.query("INSERT INTO users (username, username_key, nickname, hobbies, created_at) VALUES ('mei', 'mei', $1, $2::jsonb, 1)",
                                  [bomb.postgresValue, hobbies.postgresValue])
                _ = try old.query("INSERT INTO users (username, username_key, nickname, created_at) VALUES ('bob', 'bob', 'Bob', 1)", [])
            }
            let store = try PostgresStore(connectionString: database, readers: 1, writers: 1)
            defer { store.close() }
            #expect(store.appliedMigrations.first == 6)
            #expect(store.migrationNotes.contains("1 nicknames cut to 32 characters"), "\(store.migrationNotes)")
            #expect(store.migrationNotes.contains("1 hobby lists cut to 10 hobbies of 24 characters"), "\(store.migrationNotes)")
            let mei = try #require(try await store.read { try $0.user(username: "mei") })
            try TextLimits().validate(try #require(mei.nickname), as: .nickname)
            #expect(mei.hobbies.count == 10 && mei.hobbies[0] == String(repeating: "h", count: 24) && mei.hobbies[1] == "hhh")
            #expect(try await store.read { try $0.user(username: "bob") }?.nickname == "Bob")
        }
    }
}
