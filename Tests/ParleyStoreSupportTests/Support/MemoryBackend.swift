import ParleyStoreSupport

/// A backend over `MemoryDatabase`, with the savepoint policy and retry rule a test picks:
/// the engine is what is under test (the contract suite runs the real backends).
struct MemoryBackend: StoreBackend {
    typealias Writer = MemoryWriter
    typealias Reader = [String: Int]
    typealias WriteSession = MemoryWriteSession
    typealias ReadConnection = MemoryDatabase

    let savepoints: SavepointPolicy
    let retryRule: WriteRetryRule
    var threadNamePrefix: String { "parley-mem" }

    func read<T>(on connection: MemoryDatabase, _ body: ([String: Int]) throws -> T) throws -> T {
        try body(connection.rows)
    }
}
