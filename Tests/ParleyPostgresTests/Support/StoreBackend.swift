import Foundation
import ParleyCore
import ParleyProtocol
@testable import ParleyPostgres
@testable import ParleySQLite
import TestSupport
import Testing

/// The stores the contract tests run against: each contract test runs once per backend.
enum StoreBackend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    /// The SQLite store with the segment message log as the durability point of message
    /// inserts (`parley serve --message-log segment`). It also indexes messages for search
    /// between every two batches (`SearchIndexSettings` with no interval), where `sqlite`
    /// leaves them to the default interval: search is checked through both the index and the
    /// unindexed tail.
    case sqliteMessageLog = "sqlite-message-log"
    /// `sqliteMessageLog` with `--message-log-apply later` and an apply delay and batch so
    /// large that the writer's own apply never runs: every acknowledged row reaches SQLite
    /// only because a read or another write applied it first, which is what the contract
    /// then checks.
    case sqliteMessageLogLater = "sqlite-message-log-later"
    case postgres

    var testDescription: String { rawValue }

    /// The backends this machine can test, or those named in `PARLEY_CONTRACT_BACKENDS`
    /// (comma-separated raw values), to run the contract on one backend alone.
    static let available: [StoreBackend] = {
        if let names = ProcessInfo.processInfo.environment["PARLEY_CONTRACT_BACKENDS"] {
            return names.split(separator: ",").compactMap { StoreBackend(rawValue: String($0)) }
        }
        return installed
    }()

    /// The backends this machine can test. PostgreSQL is left out, with a note on stderr,
    /// only when its server binaries are missing (`make test-deps` installs them).
    private static let installed: [StoreBackend] = {
        guard PostgresTestServer.isAvailable else {
            FileHandle.standardError.write(Data("note: PostgreSQL store tests skipped: \(PostgresTestServer.unavailableReason)\n".utf8))
            return [.sqlite, .sqliteMessageLog, .sqliteMessageLogLater]
        }
        return allCases
    }()
}

/// What the tests may ask of either store beyond `Store`: the group-commit counters.
protocol InspectableStore: Store {
    /// Transactions committed since opening.
    var commitCount: Int { get }
    /// Writes queued and not yet taken by a writer.
    var queuedWriteCount: Int { get }
    /// The engine's write with a completion, under the async `write` (not part of `Store`).
    func write<T: Sendable>(_ body: @escaping @Sendable (StoreWriter) throws -> T,
                            completion: @escaping @Sendable (Result<T, any Error>) -> Void)
    func close()
}

extension SQLiteStore: InspectableStore {}
extension PostgresStore: InspectableStore {}

/// Opens a fresh, empty store of `backend` (a new SQLite file, or a new PostgreSQL database
/// on the test process's server), runs `body`, then closes and removes it, whether `body`
/// returns or throws. The PostgreSQL store gets one writer thread, like SQLite's, so that
/// tests of batching see the same batches on both.
func withStore(_ backend: StoreBackend, readers: Int = 2,
               _ body: (any InspectableStore) async throws -> Void) async throws {
    switch backend {
    case .sqlite, .sqliteMessageLog, .sqliteMessageLogLater:
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("parley-contract-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let log: MessageLogSettings? = switch backend {
        case .sqliteMessageLog: MessageLogSettings(directory: directory + "/message-log")
        case .sqliteMessageLogLater: MessageLogSettings(directory: directory + "/message-log", apply: .later,
                                                         applyBatchRows: 1_000_000, applyDelay: .seconds(3_600))
        default: nil
        }
        let searchIndex = backend != .sqlite ? SearchIndexSettings(batchRows: 2, interval: .zero) : SearchIndexSettings()
        let store = try SQLiteStore(path: directory + "/parley.sqlite", readers: readers, messageLog: log, searchIndex: searchIndex)
        defer { store.close() }
        try await body(store)
    case .postgres:
        try await withPostgresDatabase { connectionString in
            let store = try PostgresStore(connectionString: connectionString, readers: readers, writers: 1)
            defer { store.close() }
            try await body(store)
        }
    }
}

/// Creates a fresh database on the test server, runs `body` with its connection string, then
/// drops it (every store on it must be closed by then). At most
/// `PostgresTestServer.databaseSlots` of these run at once: the others wait for one to end.
func withPostgresDatabase(_ body: (String) async throws -> Void) async throws {
    let server = try PostgresTestServer.shared()
    await PostgresTestServer.databaseSlots.acquire()
    defer { PostgresTestServer.databaseSlots.release() }
    let connectionString = try server.createDatabase()
    defer { server.dropDatabase(connectionString) }
    try await body(connectionString)
}

/// A password account as registration makes it.
func newUser(_ username: String?, phone: String? = nil, at time: Int64 = 1_700_000_000_000) -> NewUser {
    NewUser(username: username, passwordHash: username.map { "$argon2id$hash-of-\($0)" }, phone: phone, createdAt: time)
}

/// Holds a store's (only) writer thread inside a write until opened, so that the writes
/// queued meanwhile are all taken together as the next batch.
final class WriterGate: Sendable {
    private let release = DispatchSemaphore(value: 0)
    private let entered = DispatchSemaphore(value: 0)

    /// Queues a write that blocks the writer (after running `body`), and returns once the
    /// writer is inside it. Await the returned task after `open()`.
    static func hold(_ store: any Store, running body: @escaping @Sendable (StoreWriter) throws -> Void = { _ in })
        async throws -> (WriterGate, Task<Void, any Error>) {
        let gate = WriterGate()
        let task = Task {
            try await store.write { writer in
                try body(writer)
                gate.entered.signal()
                // Bounded: a test that never opens the gate fails instead of holding the
                // writer, and the store's close (which joins it) with it, for ever.
                _ = gate.release.wait(timeout: .now() + 30)
            }
        }
        do {
            try await eventually("the writer to enter the gate") { gate.entered.wait(timeout: .now()) == .success }
        } catch {
            // The writer may still enter later: let it through, so the test's store can close.
            gate.open()
            throw error
        }
        return (gate, task)
    }

    /// Lets the held write finish.
    func open() {
        release.signal()
    }
}

/// An error of the test's own, to see that the store hands it back unchanged.
struct TestError: Error, Equatable {
    let reason: String
}

/// Registers one user per name, in order (so their ids ascend in the same order).
func insertUsers(_ store: any Store, _ names: [String]) async throws -> [StoredUser] {
    try await store.write { writer in try names.map { try writer.insertUser(newUser($0)) } }
}

/// Opens the 1:1 conversation of `a` and `b`, as a friendship would.
func insertDirectConversation(_ store: any Store, _ a: UserID, _ b: UserID, at time: Int64 = 1) async throws -> StoredConversation {
    try await store.write { try $0.insertConversation(NewConversation(kind: .user, userA: a, userB: b, createdAt: time)) }
}
