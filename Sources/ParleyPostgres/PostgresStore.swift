public import ParleyCore
import ParleyStoreSupport

/// `Store` on a PostgreSQL database, which several Parley servers may share.
///
/// **Threads.** The store runs on `ThreadedStore` (ParleyStoreSupport) with
/// `PostgresBackend`. libpq blocks, so no store work runs on the caller's thread: event loops
/// and the async runtime never wait on the database. `writers` threads, each with its own
/// connection, run the `write`s with group commit: each takes the queued writes (up to
/// `batchLimit`), runs each in its own savepoint of one transaction, commits once, and only
/// then tells the callers. `readers` threads, each with its own connection, run the
/// `read`s, each in a read-only repeatable-read transaction (one consistent snapshot). Idle
/// threads sleep.
///
/// **Several servers.** Nothing is cached between transactions; every rule that must hold
/// across servers is the database's: unique constraints (names, client ids) and the
/// conversation row's lock for gapless sequence numbers (`appendMessage`). A batch that
/// loses a deadlock or serialization race to another transaction is rolled back and its
/// writes run again (each in a transaction of its own), so `write` closures may run more
/// than once and must only touch the store.
///
/// **Round trips.** Transaction control rides along with the next statement (libpq's
/// pipeline mode), so appending a message to a batch costs one round trip for the statement
/// and nothing for the `BEGIN` and savepoints around it; the commit is shared by the batch.
/// One writer (the default) is usually best: group commit already shares the commits, and
/// writers of one server would only wait for each other's row locks.
///
/// **Connections.** A connection the server dropped is made again before the next batch or
/// read; the work that was on it fails with the reason (a commit whose answer was lost is
/// reported as failed).
///
/// `init` connects and migrates the schema on the calling thread: call it at start-up, not on
/// an event loop. Call `close()` when done; deinit does the same as a fallback.
public final class PostgresStore: Store {
    private let engine: ThreadedStore<PostgresBackend>
    /// The schema versions applied by this open (empty when the database was up to date).
    let appliedMigrations: [Int]
    /// What the migrations applied by this open changed in stored data, one line each (for
    /// the server's log).
    public let migrationNotes: [String]

    /// Connects to the database `connectionString` names (a libpq URI such as
    /// `postgres://parley@db.example:5432/parley`, or `key=value` pairs), brings its schema
    /// up to date and starts the threads. The database must exist; the tables are created.
    ///
    /// - Parameters:
    ///   - readers: reader threads and connections; at least one.
    ///   - writers: writer threads and connections; at least one.
    ///   - batchLimit: most writes committed in one transaction.
    /// - Throws: `StoreError.failure` if a connection cannot be made, or the database has a
    ///   newer schema than this build knows.
    public init(connectionString: String, readers: Int = 2, writers: Int = 1, batchLimit: Int = 256) throws {
        var writerConnections: [PostgresConnection] = []
        var readerConnections: [PostgresConnection] = []
        do {
            for _ in 0..<max(1, writers) {
                writerConnections.append(try PostgresConnection(connectionString: connectionString))
            }
            appliedMigrations = try PostgresStoreSchema.migrator.migrate(writerConnections[0])
            migrationNotes = appliedMigrations.contains(6)
                ? try writerConnections[0].query("SELECT note FROM migration_notes WHERE version = 6", []).map { try $0.string(0) } : []
            for _ in 0..<max(1, readers) {
                readerConnections.append(try PostgresConnection(connectionString: connectionString))
            }
        } catch {
            throw StoreError.translating(error, during: "open PostgreSQL store")
        }

        engine = try ThreadedStore(backend: PostgresBackend(), writers: writerConnections.map(PostgresWriteSession.init),
                                   readers: readerConnections, batchLimit: batchLimit)
    }

    /// Runs `body` on a reader thread, in a read-only repeatable-read transaction: every
    /// query in it sees the database as of one moment.
    public nonisolated(nonsending) func read<T: Sendable>(_ body: @escaping @Sendable (StoreReader) throws -> T) async throws -> T {
        try await engine.read(body)
    }

    /// Runs `body` on a writer thread, in its own savepoint of the next batch, and returns
    /// once the batch is committed. If `body` throws, its own changes are undone and its
    /// error rethrown; the rest of the batch is unaffected. If the commit fails, every write
    /// of the batch whose `body` had succeeded fails with the commit's error.
    ///
    /// `body` may run more than once (a batch that lost a deadlock is run again), so it must
    /// change nothing but the store; the caller hears back once.
    public nonisolated(nonsending) func write<T: Sendable>(_ body: @escaping @Sendable (StoreWriter) throws -> T) async throws -> T {
        try await engine.write(body)
    }

    /// `write` for callers that are not tasks (an event loop): the same batch, commit and
    /// outcomes, without a task or a continuation. `completion` runs on a writer thread (or
    /// at once, if the store is closed), so it must only hand the outcome on.
    public func write<T: Sendable>(_ body: @escaping @Sendable (StoreWriter) throws -> T,
                                   completion: @escaping @Sendable (Result<T, any Error>) -> Void) {
        engine.write(body, completion: completion)
    }

    /// Refuses new work, lets queued reads and writes finish, stops the threads and closes
    /// the connections. Blocks until then, so call it at shutdown, not on an event loop.
    /// Later calls return at once; reads and writes after it fail.
    public func close() {
        engine.close()
    }

    // MARK: For tests

    /// Transactions committed since opening.
    var commitCount: Int { engine.commitCount }

    /// Writes queued and not yet taken by a writer.
    var queuedWriteCount: Int { engine.queuedWriteCount }
}
