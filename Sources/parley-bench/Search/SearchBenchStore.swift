import Foundation
import ParleyCore
import ParleyPostgres
import ParleySQLite

/// A store `search-bench` fills: a fresh SQLite file of its own, or a fresh PostgreSQL
/// database it was given (on loopback; `psql` answers its size questions and drops the
/// index in that database only).
enum SearchBenchStore {
    case sqlite(path: String)
    /// `serverPID`: the postmaster, whose processes' CPU counts as the store's.
    case postgres(uri: String, serverPID: Int32?)

    var name: String {
        switch self {
        case .sqlite: "sqlite"
        case .postgres: "postgres"
        }
    }

    /// Opens the store (making its schema); the closure closes it.
    func open() throws -> (store: any Store, close: () -> Void) {
        switch self {
        case .sqlite(let path):
            let store = try SQLiteStore(path: path)
            return (store, { store.close() })
        case .postgres(let uri, _):
            let store = try PostgresStore(connectionString: uri)
            return (store, { store.close() })
        }
    }

    /// Bytes of the messages table and of the search index: SQLite's `dbstat` (FTS5 keeps
    /// its index in the `messages_search_*` tables), PostgreSQL's `pg_relation_size` of the
    /// table and of the `pg_trgm` GIN index.
    func sizes() throws -> (messages: Int64, index: Int64) {
        switch self {
        case .sqlite(let path):
            return try SearchBench.sqliteSizes(path: path)
        case .postgres(let uri, _):
            let answer = try Self.psql(uri, "SELECT pg_relation_size('messages') || ' ' || pg_relation_size('messages_search')")
            let numbers = answer.split(separator: " ").compactMap { Int64($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            guard numbers.count == 2 else { throw BenchError.failed("psql answered \(answer)") }
            return (numbers[0], numbers[1])
        }
    }

    /// Stops the search index's upkeep in this store (the bench's own, never a server's):
    /// messages appended afterwards are not indexed.
    func dropIndexUpkeep() throws {
        switch self {
        case .sqlite(let path): try SearchBench.dropSQLiteIndexUpkeep(path: path)
        case .postgres(let uri, _): _ = try Self.psql(uri, "DROP INDEX IF EXISTS messages_search")
        }
    }

    /// CPU seconds the store's own processes spent so far (0 for SQLite, which runs in this
    /// process and is counted with it).
    func serverCPUSeconds() -> Double {
        guard case .postgres(_, let pid?) = self else { return 0 }
        return Double(ProcessStats.familyTicks(parent: pid)) / Double(ProcessStats.ticksPerSecond)
    }

    /// Runs one statement with `psql` and returns what it printed (unaligned, tuples only).
    static func psql(_ uri: String, _ sql: String) throws -> String {
        let process = psqlProcess(uri, sql)
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard process.terminationStatus == 0 else { throw BenchError.failed("psql: \(text)") }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `psql` set to run `sql` (one statement or a meta-command such as `\copy`), not started.
    static func psqlProcess(_ uri: String, _ sql: String) -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["psql", uri, "-X", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-c", sql]
        return process
    }
}
