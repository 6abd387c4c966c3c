import Testing
@testable import ParleySQL

@Suite struct SQLiteStatementTests {
    private func makeConnection() throws -> SQLiteConnection {
        let connection = try SQLiteConnection.inMemory()
        try connection.execute("CREATE TABLE v (i INTEGER, r REAL, s TEXT, b BLOB, f INTEGER)")
        return connection
    }

    @Test(arguments: [Int64.min, -1, 0, 1, Int64.max])
    func integersRoundTrip(value: Int64) throws {
        let connection = try makeConnection()
        try connection.run("INSERT INTO v (i) VALUES (?)", value)
        #expect(try connection.queryFirst("SELECT i FROM v") { try $0.int64(0) } == value)
        #expect(try connection.queryFirst("SELECT i FROM v") { try $0.int(0) } == Int(value))
    }

    @Test(arguments: [0.0, -0.0, 1.5, -.pi, .greatestFiniteMagnitude, .leastNonzeroMagnitude, .infinity])
    func doublesRoundTrip(value: Double) throws {
        let connection = try makeConnection()
        try connection.run("INSERT INTO v (r) VALUES (?)", value)
        let read = try connection.queryFirst("SELECT r FROM v") { try $0.double(0) }
        #expect(read == value)
    }

    @Test(arguments: ["", "plain", "héllo wörld", "中文 и русский", "emoji 🧑‍💻🌍", "nul\u{0}inside"])
    func stringsRoundTrip(value: String) throws {
        let connection = try makeConnection()
        try connection.run("INSERT INTO v (s) VALUES (?)", value)
        #expect(try connection.queryFirst("SELECT s FROM v") { try $0.string(0) } == value)
        #expect(try connection.queryFirst("SELECT s IS NULL FROM v") { try $0.bool(0) } == false)
    }

    @Test(arguments: [[], [0], [0, 255, 1, 128]] as [[UInt8]])
    func blobsRoundTrip(value: [UInt8]) throws {
        let connection = try makeConnection()
        try connection.run("INSERT INTO v (b) VALUES (?)", value)
        #expect(try connection.queryFirst("SELECT b FROM v") { try $0.blob(0) } == value)
        #expect(try connection.queryFirst("SELECT typeof(b) FROM v") { try $0.string(0) } == "blob")
    }

    @Test func largeValuesRoundTrip() throws {
        let connection = try makeConnection()
        let text = String(repeating: "ü", count: 100_000)
        let bytes = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try connection.run("INSERT INTO v (s, b) VALUES (?, ?)", text, bytes)
        let read = try connection.queryFirst("SELECT s, b FROM v") { (try $0.string(0), try $0.blob(1)) }
        #expect(read?.0 == text)
        #expect(read?.1 == bytes)
    }

    @Test func booleansAndNullsRoundTrip() throws {
        let connection = try makeConnection()
        let nothing: String? = nil
        try connection.run("INSERT INTO v VALUES (?, ?, ?, ?, ?)", nil, nil, nothing, SQLiteValue.null, true)
        try connection.run("INSERT INTO v (f) VALUES (?)", false)
        let rows = try connection.query("SELECT i, r, s, b, f FROM v ORDER BY rowid") { row in
            (row.isNull(0), row.isNull(1), row.isNull(2), row.isNull(3), try row.bool(4))
        }
        #expect(rows.count == 2)
        #expect(rows[0] == (true, true, true, true, true))
        #expect(rows[1].4 == false)
        let optional = try connection.queryFirst("SELECT s, f FROM v") { row in
            (try row.column(0, as: String?.self), try row.column(1, as: Int64?.self))
        }
        #expect(optional?.0 == nil)
        #expect(optional?.1 == 1)
    }

    @Test func valuesKeepTheirStorageClass() throws {
        let connection = try SQLiteConnection.inMemory()
        let values = try connection.queryFirst("SELECT NULL, 1, 2.5, 'x', x'00ff', ''") { row in
            try (0..<6).map { try row.column($0, as: SQLiteValue.self) }
        }
        #expect(values == [.null, .integer(1), .real(2.5), .text("x"), .blob([0, 255]), .text("")])
    }

    @Test func bindsByName() throws {
        let connection = try makeConnection()
        let insert = try connection.prepare("INSERT INTO v (i, s) VALUES (:number, @word)")
        try insert.bind(7, named: ":number")
        try insert.bind("seven", named: "word")
        try insert.run()
        try insert.run(named: ["number": 8, "@word": "eight"])
        let rows = try connection.query("SELECT s FROM v WHERE i >= $low ORDER BY i") { try $0.string("S") }
        #expect(rows == [])  // $low was left NULL: nothing is >= NULL
        let select = try connection.prepare("SELECT i, s AS word FROM v WHERE i >= $low ORDER BY i")
        let read = try select.query(named: ["low": 7]) { row in (try row.int("i"), try row.string("word")) }
        #expect(read.map(\.0) == [7, 8])
        #expect(read.map(\.1) == ["seven", "eight"])
        #expect(select.columnNames == ["i", "word"])
    }

    @Test func reusesAStatementThroughReset() throws {
        let connection = try makeConnection()
        let insert = try connection.prepare("INSERT INTO v (i) VALUES (?)")
        for value in 0..<100 {
            try insert.run(value)
        }
        let select = try connection.prepare("SELECT i FROM v WHERE i % ? = 0 ORDER BY i")
        #expect(try select.query(50) { try $0.int(0) } == [0, 50])
        #expect(try select.query(33) { try $0.int(0) } == [0, 33, 66, 99])

        // By hand: bind, step, read, reset, step again with the same binding.
        try select.bind(25, at: 1)
        var seen: [Int] = []
        while try select.step() { seen.append(try select.int(0)) }
        select.reset()
        #expect(try select.step())
        #expect(try select.int(0) == 0)
        select.reset()
        #expect(seen == [0, 25, 50, 75])
        #expect(try select.queryFirst(bindings: []) { try $0.int(0) } == 0)
        #expect(try select.queryFirst(1000) { try $0.int(0) } == 0)
    }

    @Test func refusesWrongTypesInsteadOfConverting() throws {
        let connection = try SQLiteConnection.inMemory()
        let statement = try connection.prepare("SELECT NULL, 'text', 1.5, x'01', 1")
        #expect(try statement.step())
        let nullAsInteger = try #require(throws: SQLiteError.self) { try statement.int64(0) }
        #expect(nullAsInteger.code == 20) // SQLITE_MISMATCH
        #expect(nullAsInteger.message.contains("NULL"))
        #expect(throws: SQLiteError.self) { try statement.int64(1) }
        #expect(throws: SQLiteError.self) { try statement.int64(2) }
        #expect(throws: SQLiteError.self) { try statement.string(3) }
        #expect(throws: SQLiteError.self) { try statement.blob(1) }
        #expect(try statement.double(4) == 1)
        #expect(throws: SQLiteError.self) { try statement.int64("nope") }
    }

    @Test func refusesMisbinding() throws {
        let connection = try SQLiteConnection.inMemory()
        let statement = try connection.prepare("SELECT ?, :name")
        #expect(statement.parameterCount == 2)
        #expect(throws: SQLiteError.self) { try statement.run(1) }
        #expect(throws: SQLiteError.self) { try statement.run(1, 2, 3) }
        #expect(throws: SQLiteError.self) { try statement.bind(1, at: 3) }
        #expect(throws: SQLiteError.self) { try statement.bind(1, at: 0) }
        #expect(throws: SQLiteError.self) { try statement.bind(1, named: "other") }
        #expect(try statement.queryFirst(1, 2) { try $0.int(1) } == 2)
    }

    @Test func preparesOneStatementOnly() throws {
        let connection = try SQLiteConnection.inMemory()
        let twoStatements = try #require(throws: SQLiteError.self) { try connection.prepare("SELECT 1; SELECT 2") }
        #expect(twoStatements.code == 21) // SQLITE_MISUSE
        #expect(throws: SQLiteError.self) { try connection.prepare("  -- only a comment") }
        _ = try connection.prepare("SELECT 1; -- trailing comment\n")
        let syntax = try #require(throws: SQLiteError.self) { try connection.prepare("SELEC 1") }
        #expect(syntax.code == 1)
        #expect(syntax.sql == "SELEC 1")
        #expect(syntax.description.contains("syntax error"))
    }
}

/// The typed binders and reader of the hot paths.
@Suite struct SQLiteStatementTypedTests {
    @Test func typedBindingsStoreWhatTheGeneralOnesStore() throws {
        let connection = try SQLiteConnection.inMemory()
        try connection.execute("CREATE TABLE v (id INTEGER PRIMARY KEY, i INTEGER, s TEXT, n INTEGER, t TEXT)")
        let insert = try connection.prepare("INSERT INTO v (i, s, n, t) VALUES (?1, ?2, ?3, ?4) RETURNING id, i")
        for (index, text) in ["plain", "中文 🌍", "nul\u{0}inside", ""].enumerated() {
            insert.reset()
            try insert.bind(integer: Int64.min + Int64(index), at: 1)
            try insert.bind(text: text, at: 2)
            try insert.bind(integer: nil as Int64?, at: 3)
            try insert.bind(text: nil, at: 4)
            #expect(try insert.step())
            #expect(insert.integer(at: 0) == Int64(index + 1))
            #expect(insert.integer(at: 1) == Int64.min + Int64(index))
            #expect(try insert.step() == false)
        }
        insert.reset()
        let rows = try connection.query("SELECT i, s, n IS NULL AND t IS NULL FROM v ORDER BY id") {
            (try $0.int64(0), try $0.string(1), try $0.bool(2))
        }
        #expect(rows.map(\.0) == (0..<4).map { Int64.min + Int64($0) })
        #expect(rows.map(\.1) == ["plain", "中文 🌍", "nul\u{0}inside", ""])
        #expect(rows.allSatisfy { $0.2 })
    }

    @Test func bindingAParameterThatDoesNotExistThrows() throws {
        let connection = try SQLiteConnection.inMemory()
        let statement = try connection.prepare("SELECT ?1")
        #expect(throws: SQLiteError.self) { try statement.bind(integer: 1, at: 2) }
        #expect(throws: SQLiteError.self) { try statement.bind(text: "x", at: 0) }
    }

    @Test func bindingWhileRunningIsRefused() throws {
        let connection = try SQLiteConnection.inMemory()
        let statement = try connection.prepare("SELECT ?1 UNION ALL SELECT 2")
        try statement.bind(integer: 1, at: 1)
        #expect(try statement.step())
        #expect(throws: SQLiteError.self) { try statement.bind(integer: 3, at: 1) }
        statement.reset()
    }
}
