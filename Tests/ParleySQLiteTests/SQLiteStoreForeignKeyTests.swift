import ParleyCore
import ParleyProtocol
import ParleySQL
@testable import ParleySQLite
import Testing

/// What SQLite's schema does beyond the store contract: foreign keys and ids never reused,
/// checked through a plain connection since the store has no way to delete users yet.
@Suite struct SQLiteStoreForeignKeyTests {
    private func session(_ id: String, of user: UserID, token: UInt8, at time: Int64 = 1_000,
                         agent: String? = nil) -> StoredSession {
        StoredSession(id: id, userID: user, tokenHash: Array(repeating: token, count: 32), createdAt: time,
                      lastSeenAt: time, userAgent: agent)
    }

    @Test func deletingAUserDeletesTheirSessionsButIsRefusedWhileTheyOwnMedia() async throws {
        try await withStore { store, directory in
            let mei = try await store.write { try $0.insertUser(newUser("mei")) }
            let bob = try await store.write { try $0.insertUser(newUser("bob")) }
            try await store.write { writer in
                try writer.insertSession(self.session("s-mei", of: mei.id, token: 1))
                try writer.insertSession(self.session("s-bob", of: bob.id, token: 2))
                try writer.insertMedia(StoredMedia(id: "m-bob", ownerID: bob.id, type: .png, width: 1, height: 1,
                                                   size: 10, createdAt: 1))
            }
            // The store has no way to delete users yet, so a plain connection stands in for it.
            let admin = try SQLiteConnection(path: directory.file("parley.sqlite"))
            admin.busyTimeout = .seconds(5)
            try admin.setForeignKeysEnabled(true)
            #expect(try admin.run("DELETE FROM users WHERE id = ?", mei.id.rawValue) == 1)
            let refused = try #require(throws: SQLiteError.self) {
                try admin.run("DELETE FROM users WHERE id = ?", bob.id.rawValue)
            }
            #expect(refused.isForeignKeyViolation)

            #expect(try await store.read { try $0.sessions(of: mei.id) }.isEmpty)
            #expect(try await store.read { try $0.sessions(of: bob.id) }.map(\.id) == ["s-bob"])

            // Ids are never handed out again, even after the highest one is deleted.
            #expect(try admin.run("DELETE FROM users WHERE id = ?", mei.id.rawValue) == 0)
            try admin.run("DELETE FROM sessions")
            try admin.run("DELETE FROM media")
            try admin.run("DELETE FROM users")
            let next = try await store.write { try $0.insertUser(newUser("carol")) }
            #expect(next.id > bob.id)
        }
    }
}
