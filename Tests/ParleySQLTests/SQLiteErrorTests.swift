import Testing
@testable import ParleySQL

@Suite struct SQLiteErrorTests {
    @Test func tellsUniqueViolationsFromOtherConstraints() throws {
        let connection = try SQLiteConnection.inMemory()
        try connection.setForeignKeysEnabled(true)
        try connection.execute("""
            CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE COLLATE NOCASE);
            CREATE TABLE posts (user INTEGER NOT NULL REFERENCES users(id));
            """)
        try connection.run("INSERT INTO users (id, name) VALUES (1, ?)", "ann")

        let duplicate = try #require(throws: SQLiteError.self) {
            try connection.run("INSERT INTO users (name) VALUES (?)", "ANN")
        }
        #expect(duplicate.isUniqueViolation)
        #expect(duplicate.isConstraintViolation)
        #expect(duplicate.code == 19)
        #expect(duplicate.extendedCode == 2067)
        #expect(duplicate.message.contains("users.name"))

        let samePrimaryKey = try #require(throws: SQLiteError.self) {
            try connection.run("INSERT INTO users (id, name) VALUES (1, 'bob')")
        }
        #expect(samePrimaryKey.isUniqueViolation)

        let missingName = try #require(throws: SQLiteError.self) {
            try connection.run("INSERT INTO users (name) VALUES (?)", nil)
        }
        #expect(missingName.isConstraintViolation)
        #expect(missingName.isNotNullViolation)
        #expect(!missingName.isUniqueViolation)

        let orphan = try #require(throws: SQLiteError.self) {
            try connection.run("INSERT INTO posts VALUES (99)")
        }
        #expect(orphan.isForeignKeyViolation)
        #expect(!orphan.isUniqueViolation)
        #expect(!orphan.isBusy)
    }

    @Test func describesItself() {
        let error = SQLiteError(extendedCode: 2067, message: "UNIQUE constraint failed: t.v", sql: "INSERT INTO t VALUES (?)")
        #expect(error.code == 19)
        #expect(error.description == "SQLite error 2067: UNIQUE constraint failed: t.v (in: INSERT INTO t VALUES (?))")
        #expect(error == SQLiteError(extendedCode: 2067, message: "UNIQUE constraint failed: t.v", sql: "INSERT INTO t VALUES (?)"))
        #expect(SQLiteError(extendedCode: 5, message: "database is locked").isBusy)
    }
}
