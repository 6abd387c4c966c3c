import ParleyCore
import ParleySQL
import ParleyStoreSupport

/// SQLite's part of `ThreadedStore`: one writer connection, read-only reader connections,
/// writes without savepoints until one fails after changing rows, no retries (one writer
/// cannot lose a race), and reads in a deferred transaction (WAL lets each read its snapshot
/// beside the writer).
struct SQLiteBackend: StoreBackend {
    typealias Writer = any StoreWriter
    typealias Reader = any StoreReader
    typealias WriteSession = SQLiteWriteSession
    typealias ReadConnection = SQLiteConnection

    var threadNamePrefix: String { "parley-sql" }
    // A savepoint costs two statements and a copy of every page the write touches (SQLite's
    // sub-journal), and nearly every write succeeds or fails before changing anything.
    var savepoints: SavepointPolicy { .afterAFailedChange }
    var retryRule: WriteRetryRule { .never }

    func read<T>(on connection: SQLiteConnection, _ body: (any StoreReader) throws -> T) throws -> T {
        try StoreError.mapping("read") {
            try connection.transaction(kind: .deferred) {
                try body(SQLiteStoreReader(connection: connection))
            }
        }
    }
}
