import Foundation
import Testing
@testable import ParleySQL

@Suite struct SQLiteConnectionPragmasTests {
    @Test func walModeOnAFile() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("wal.sqlite")
        let connection = try SQLiteConnection(path: path)
        #expect(try connection.journalMode() == .delete)
        #expect(try connection.setJournalMode(.wal) == .wal)
        #expect(try connection.journalMode() == .wal)
        try connection.execute("CREATE TABLE t (v); INSERT INTO t VALUES (1);")
        #expect(FileManager.default.fileExists(atPath: path + "-wal"))
        // WAL is a property of the file, so a second connection sees it too.
        #expect(try SQLiteConnection(path: path).journalMode() == .wal)
    }

    @Test func inMemoryDatabasesStayInMemoryMode() throws {
        let connection = try SQLiteConnection.inMemory()
        #expect(try connection.setJournalMode(.wal) == .memory)
    }

    @Test func synchronousAndForeignKeys() throws {
        let connection = try SQLiteConnection.inMemory()
        try connection.setSynchronousMode(.normal)
        #expect(try connection.synchronousMode() == .normal)
        try connection.setSynchronousMode(.full)
        #expect(try connection.synchronousMode() == .full)

        #expect(try connection.foreignKeysEnabled() == false)
        try connection.setForeignKeysEnabled(true)
        #expect(try connection.foreignKeysEnabled())
        try connection.transaction {
            #expect(throws: SQLiteError.self) { try connection.setForeignKeysEnabled(false) }
        }
    }

    @Test func userVersionRoundTrips() throws {
        let connection = try SQLiteConnection.inMemory()
        #expect(try connection.userVersion() == 0)
        try connection.setUserVersion(42)
        #expect(try connection.userVersion() == 42)
        #expect(throws: SQLiteError.self) { try connection.setUserVersion(Int(Int32.max) + 1) }
    }
}
