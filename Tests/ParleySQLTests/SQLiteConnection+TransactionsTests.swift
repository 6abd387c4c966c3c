import Testing
@testable import ParleySQL

@Suite struct SQLiteConnectionTransactionsTests {
    struct Boom: Error, Equatable {}

    private func makeConnection() throws -> SQLiteConnection {
        let connection = try SQLiteConnection.inMemory()
        try connection.execute("CREATE TABLE t (v INTEGER)")
        return connection
    }

    private func count(_ connection: SQLiteConnection) throws -> Int {
        try connection.queryFirst("SELECT count(*) FROM t") { try $0.int(0) } ?? -1
    }

    @Test func commitsWhenTheBodyReturns() throws {
        let connection = try makeConnection()
        let result = try connection.transaction(kind: .immediate) {
            #expect(connection.isInTransaction)
            try connection.run("INSERT INTO t VALUES (1)")
            try connection.run("INSERT INTO t VALUES (2)")
            return "done"
        }
        #expect(result == "done")
        #expect(!connection.isInTransaction)
        #expect(try count(connection) == 2)
    }

    @Test func rollsBackAndRethrowsWhenTheBodyThrows() throws {
        let connection = try makeConnection()
        #expect(throws: Boom()) {
            try connection.transaction {
                try connection.run("INSERT INTO t VALUES (1)")
                throw Boom()
            }
        }
        #expect(!connection.isInTransaction)
        #expect(try count(connection) == 0)
    }

    @Test func nestedTransactionsBecomeSavepoints() throws {
        let connection = try makeConnection()
        try connection.transaction {
            try connection.run("INSERT INTO t VALUES (1)")
            #expect(throws: Boom()) {
                try connection.transaction {
                    try connection.run("INSERT INTO t VALUES (2)")
                    throw Boom()
                }
            }
            try connection.savepoint {
                try connection.run("INSERT INTO t VALUES (3)")
            }
        }
        #expect(try connection.query("SELECT v FROM t ORDER BY v") { try $0.int(0) } == [1, 3])
    }

    @Test func aFailedCommitRollsBack() throws {
        let connection = try SQLiteConnection.inMemory()
        try connection.setForeignKeysEnabled(true)
        try connection.execute("""
            CREATE TABLE parent (id INTEGER PRIMARY KEY);
            CREATE TABLE child (parent INTEGER REFERENCES parent(id) DEFERRABLE INITIALLY DEFERRED);
            """)
        let error = try #require(throws: SQLiteError.self) {
            try connection.transaction {
                try connection.run("INSERT INTO child VALUES (7)")
            }
        }
        #expect(error.isForeignKeyViolation)
        #expect(!connection.isInTransaction)
        #expect(try connection.queryFirst("SELECT count(*) FROM child") { try $0.int(0) } == 0)
    }
}
