import Foundation
import ParleyProtocol
import ParleySQL

/// The client's SQLite file: the cache (account, sessions list, contacts, recent messages)
/// and the outbox. Owned by one `ParleyClient` actor, which serialises every use, so the
/// connection is only ever used by one thread at a time.
final class LocalStore {
    let connection: SQLiteConnection
    private let encoder = JSONEncoder()
    private let decoder = JSONDecoder()

    /// Opens (and creates, and migrates) the store at `path`; nil keeps it in memory.
    init(path: String?) throws(ParleyError) {
        do {
            if let path {
                let directory = (path as NSString).deletingLastPathComponent
                if !directory.isEmpty {
                    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
                }
                connection = try SQLiteConnection(path: path)
                // WAL + NORMAL: a commit survives the app being killed (the outbox's promise);
                // only a power cut can take the last commits, never the file's integrity.
                try connection.setJournalMode(.wal)
                try connection.setSynchronousMode(.normal)
                connection.busyTimeout = .seconds(5)
            } else {
                connection = try SQLiteConnection.inMemory()
            }
            try LocalSchema.migrator.migrate(connection)
        } catch let error as ParleyError {
            throw error
        } catch {
            throw ParleyError.storage("\(error)")
        }
    }

    /// Runs `body`, turning SQLite and JSON failures into `ParleyError.storage`.
    @discardableResult
    func guarded<T>(_ body: () throws -> T) throws(ParleyError) -> T {
        do {
            return try body()
        } catch {
            throw ParleyError.storage("\(error)")
        }
    }

    /// Runs `body` in one transaction (many rows, one commit).
    @discardableResult
    func transaction<T>(_ body: () throws -> T) throws(ParleyError) -> T {
        try guarded { try connection.transaction(kind: .immediate, body) }
    }

    // MARK: JSON columns

    func encode(_ value: some Encodable) throws -> String {
        String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    func decode<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
        try decoder.decode(T.self, from: Data(json.utf8))
    }

    // MARK: Meta

    func meta(_ key: String) throws(ParleyError) -> String? {
        try guarded { try connection.queryFirst("SELECT value FROM meta WHERE key = ?", key) { try $0.string(0) } }
    }

    func setMeta(_ key: String, _ value: String?) throws(ParleyError) {
        try guarded {
            if let value {
                try connection.run("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value", key, value)
            } else {
                try connection.run("DELETE FROM meta WHERE key = ?", key)
            }
        }
    }

    // MARK: Account

    func account() throws(ParleyError) -> Account? {
        try guarded { try connection.queryFirst("SELECT json FROM account WHERE id = 1") { try decode(Account.self, try $0.string(0)) } }
    }

    func setAccount(_ account: Account) throws(ParleyError) {
        try guarded {
            try connection.run("INSERT INTO account (id, json) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET json = excluded.json",
                               try encode(account))
            try storeProfiles([account.profile])
            if let username = account.profile.username {
                try connection.run("""
                    INSERT INTO known_logins (username, avatar, at) VALUES (?, ?, ?)
                    ON CONFLICT (username) DO UPDATE SET avatar = excluded.avatar, at = excluded.at
                    """, username, account.profile.avatar, Int64(Date().timeIntervalSince1970 * 1000))
            }
        }
    }

    /// Removes everything that belongs to the signed-in account (the cache, the outbox and the
    /// token); only the list of who signed in before stays.
    func clearAccountData() throws(ParleyError) {
        try transaction {
            for table in LocalSchema.accountTables {
                try connection.execute("DELETE FROM \(table)")
            }
        }
    }

    // MARK: Known logins

    /// The most recent sign-ins on this device, newest first.
    func knownLogins(limit: Int = 10) throws(ParleyError) -> [KnownLogin] {
        try guarded {
            try connection.query("SELECT username, avatar, at FROM known_logins ORDER BY at DESC LIMIT ?", limit) { row in
                KnownLogin(username: try row.string(0), avatar: try row.column(1, as: String?.self), lastSignIn: try row.int64(2))
            }
        }
    }
}
