import ParleyCore
import ParleyStoreSupport

/// PostgreSQL's part of `ThreadedStore`: writer and reader connections of their own, a
/// savepoint per write from the start (a failed statement fails the whole transaction until
/// it is rolled back to one, and a savepoint rides along with the next statement at no
/// cost), deadlocks and serialization failures retried with growing, jittered pauses, and
/// reads in read-only repeatable-read transactions (one snapshot per closure).
struct PostgresBackend: StoreBackend {
    typealias Writer = any StoreWriter
    typealias Reader = any StoreReader
    typealias WriteSession = PostgresWriteSession
    typealias ReadConnection = PostgresConnection

    /// Runs of one write that keeps losing deadlocks before it fails with the last one's error.
    /// Eleven pauses add up to about 2 s (4 s at most with their random parts): eight (0.25 s)
    /// proved too few for two nodes writing the same two conversations in opposite orders
    /// while the machine was busy (PostgresStoreClusterTests in a full parallel test run).
    static let maxAttempts = 12

    var threadNamePrefix: String { "parley-pg" }
    var savepoints: SavepointPolicy { .everyWrite }
    // Pauses of 1, 2, 4 … 1,024 ms plus up to as much again at random: under load, pauses
    // growing by a millisecond let the same pair of writers meet again and again.
    var retryRule: WriteRetryRule { WriteRetryRule(maxAttempts: Self.maxAttempts, firstPause: .milliseconds(1)) }

    func read<T>(on connection: PostgresConnection, _ body: (any StoreReader) throws -> T) throws -> T {
        // A connection the server dropped (a restart, a failover) is made again; if that
        // fails, the read fails with the reason and the next one tries again.
        if !connection.isConnected { try? connection.reconnect() }
        return try StoreError.mapping("read") {
            // Travels with the first query: a read costs one round trip per query and one
            // for the commit.
            connection.discardDeferred()
            connection.deferCommand("BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            do {
                let value = try body(PostgresStoreReader(connection: connection))
                try connection.execute("COMMIT")
                return value
            } catch {
                connection.discardDeferred()
                if connection.isInTransaction { _ = try? connection.execute("ROLLBACK") }
                throw error
            }
        }
    }
}
