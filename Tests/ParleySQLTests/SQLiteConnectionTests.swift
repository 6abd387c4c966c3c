import Foundation
import Testing
@testable import ParleySQL

@Suite struct SQLiteConnectionTests {
    @Test func sqliteKeepsNoMemoryStatistics() throws {
        let connection = try SQLiteConnection.inMemory()
        try connection.execute("CREATE TABLE t (x TEXT); INSERT INTO t VALUES (printf('%.*c', 10000, 'x'))")
        #expect(try connection.queryFirst("SELECT length(x) FROM t") { try $0.int64(0) } == 10_000)
        // With statistics on, the open connection, its schema and page cache would count.
        #expect(SQLiteConnection.countedMemoryInUse == 0)
    }

    @Test func opensInMemoryAndRunsAScript() throws {
        let connection = try SQLiteConnection.inMemory()
        #expect(connection.path == ":memory:")
        try connection.execute("""
            CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
            INSERT INTO people (name) VALUES ('ann');
            INSERT INTO people (name) VALUES ('bob');
            """)
        #expect(connection.lastInsertRowID == 2)
        #expect(try connection.queryFirst("SELECT count(*) FROM people") { try $0.int(0) } == 2)
    }

    @Test func opensAFileCreatingItAndReopensIt() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("test.sqlite")
        do {
            let connection = try SQLiteConnection(path: path)
            try connection.execute("CREATE TABLE t (v TEXT)")
            try connection.run("INSERT INTO t VALUES (?)", "kept")
        }
        #expect(FileManager.default.fileExists(atPath: path))
        let reopened = try SQLiteConnection(path: path, flags: .readOnly)
        #expect(try reopened.query("SELECT v FROM t") { try $0.string(0) } == ["kept"])
        #expect(throws: SQLiteError.self) { try reopened.run("INSERT INTO t VALUES ('no')") }
    }

    @Test func refusesToOpenWhatCannotBeOpened() throws {
        let directory = try TemporaryDirectory()
        let error = try #require(throws: SQLiteError.self) {
            try SQLiteConnection(path: directory.file("missing/dir/db.sqlite"))
        }
        #expect(error.code == 14) // SQLITE_CANTOPEN
        #expect(error.message.contains("missing/dir/db.sqlite"))
        #expect(throws: SQLiteError.self) {
            try SQLiteConnection(path: directory.file("absent.sqlite"), flags: .readWrite)
        }
    }

    @Test func reportsChanges() throws {
        let connection = try SQLiteConnection.inMemory()
        try connection.execute("CREATE TABLE t (v INTEGER); INSERT INTO t VALUES (1), (2), (3);")
        #expect(connection.changes == 3)
        #expect(try connection.run("UPDATE t SET v = v + 1 WHERE v >= ?", 2) == 2)
        #expect(connection.changes == 2)
        #expect(try connection.run("DELETE FROM t") == 3)
        #expect(try connection.run("SELECT * FROM t") == 0)
        #expect(connection.totalChanges == 8)
    }

    @Test func cachesStatementsBySQL() throws {
        let connection = try SQLiteConnection.inMemory()
        try connection.execute("CREATE TABLE t (v INTEGER); INSERT INTO t VALUES (1), (2);")
        let first = try connection.cachedStatement("SELECT v FROM t ORDER BY v")
        let second = try connection.cachedStatement("SELECT v FROM t ORDER BY v")
        #expect(first === second)

        // Nested use of the same SQL gets its own statement instead of resetting the outer one.
        let pairs = try first.query { outer in
            let inner = try connection.query("SELECT v FROM t ORDER BY v") { try $0.int(0) }
            return (try outer.int(0), inner)
        }
        #expect(pairs.map(\.0) == [1, 2])
        #expect(pairs.map(\.1) == [[1, 2], [1, 2]])

        connection.statementCacheCapacity = 1
        let other = try connection.cachedStatement("SELECT 1")
        #expect(try connection.cachedStatement("SELECT 1") === other)
        #expect(try connection.cachedStatement("SELECT v FROM t ORDER BY v") !== first)
    }

    @Test func cachedStatementsComeBackClean() throws {
        let connection = try SQLiteConnection.inMemory()
        let statement = try connection.cachedStatement("SELECT ?")
        try statement.bind(42, at: 1)
        #expect(try statement.step())
        #expect(statement.isRunning)
        #expect(try statement.step() == false)
        let again = try connection.cachedStatement("SELECT ?")
        #expect(again === statement)
        #expect(!again.isRunning)
        #expect(try again.queryFirst { $0.value(at: 0) } == .null)
    }

    @Test func statementsKeepTheDatabaseOpenAfterTheConnectionIsGone() throws {
        var connection: SQLiteConnection? = try SQLiteConnection.inMemory()
        try connection?.execute("CREATE TABLE t (v); INSERT INTO t VALUES ('still here');")
        let statement = try #require(try connection?.prepare("SELECT v FROM t"))
        connection = nil
        #expect(try statement.query { try $0.string(0) } == ["still here"])
    }

    @Test func busyTimeoutRoundTrips() throws {
        let connection = try SQLiteConnection.inMemory()
        #expect(connection.busyTimeout == .zero)
        connection.busyTimeout = .milliseconds(1500)
        #expect(connection.busyTimeout == .milliseconds(1500))
    }
}
