import Testing
@testable import ParleySQL

@Suite struct SQLiteMigratorTests {
    private let firstThree = [
        SQLiteMigration(version: 1, sql: "CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT NOT NULL)"),
        SQLiteMigration(version: 2, sql: "ALTER TABLE users ADD COLUMN nickname TEXT"),
        SQLiteMigration(version: 3) { connection in
            try connection.execute("CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT)")
            try connection.run("INSERT INTO settings VALUES ('welcome', ?)", "hello")
        },
    ]

    private func tables(_ connection: SQLiteConnection) throws -> [String] {
        try connection.query("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name") { try $0.string(0) }
    }

    @Test func migratesFromZeroAndThenDoesNothing() throws {
        let connection = try SQLiteConnection.inMemory()
        let migrator = SQLiteMigrator(firstThree)
        #expect(migrator.latestVersion == 3)
        #expect(try migrator.migrate(connection) == [1, 2, 3])
        #expect(try connection.userVersion() == 3)
        #expect(try tables(connection) == ["settings", "users"])
        #expect(try connection.queryFirst("SELECT value FROM settings") { try $0.string(0) } == "hello")

        let changesBefore = connection.totalChanges
        #expect(try migrator.migrate(connection) == [])
        #expect(connection.totalChanges == changesBefore)
        #expect(try connection.userVersion() == 3)
    }

    @Test func appliesOnlyWhatIsNew() throws {
        let connection = try SQLiteConnection.inMemory()
        try SQLiteMigrator(Array(firstThree.prefix(1))).migrate(connection)
        #expect(try connection.userVersion() == 1)
        let later = SQLiteMigrator(firstThree + [SQLiteMigration(version: 7, sql: "CREATE TABLE media (id INTEGER)")])
        #expect(try later.migrate(connection) == [2, 3, 7])
        #expect(try connection.userVersion() == 7)
    }

    @Test func refusesADatabaseNewerThanTheCode() throws {
        let connection = try SQLiteConnection.inMemory()
        try connection.setUserVersion(10)
        let error = try #require(throws: SQLiteMigrationError.self) {
            try SQLiteMigrator(firstThree).migrate(connection)
        }
        #expect(error == .databaseNewerThanCode(databaseVersion: 10, latestKnownVersion: 3))
        #expect(error.description.contains("version 10"))
        #expect(try tables(connection) == [])
    }

    @Test func aFailingStepIsRolledBackAlone() throws {
        let connection = try SQLiteConnection.inMemory()
        let broken = SQLiteMigrator([
            firstThree[0],
            SQLiteMigration(version: 2, sql: "CREATE TABLE half (v); INSERT INTO missing VALUES (1);"),
        ])
        let error = try #require(throws: SQLiteError.self) { try broken.migrate(connection) }
        #expect(error.message.contains("missing"))
        #expect(try connection.userVersion() == 1)
        #expect(try tables(connection) == ["users"])
        #expect(!connection.isInTransaction)
    }

    @Test func migratesAFileTwiceFromTwoConnections() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("migrate.sqlite")
        let migrator = SQLiteMigrator(firstThree)
        let first = try SQLiteConnection(path: path)
        let second = try SQLiteConnection(path: path)
        second.busyTimeout = .seconds(5)
        #expect(try migrator.migrate(first) == [1, 2, 3])
        #expect(try migrator.migrate(second) == [])
        #expect(try second.userVersion() == 3)
    }
}
