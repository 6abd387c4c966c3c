import ParleyProtocol

/// The core's way into the store and the blocking pool: every storage or blocking failure
/// comes out as a `ProtocolError` (`internal_error` unless the closure threw a protocol
/// error itself, or a name was taken), so services speak one error type. Reads and writes
/// stay on the caller's executor, as the store's do.
public struct StoreGateway: Sendable {
    let store: Store
    let blocking: BlockingExecutor

    public init(store: Store, blocking: BlockingExecutor) {
        self.store = store
        self.blocking = blocking
    }

    nonisolated(nonsending) func read<T: Sendable>(_ body: @escaping @Sendable (StoreReader) throws -> T) async throws(ProtocolError) -> T {
        do {
            return try await store.read(body)
        } catch {
            throw Self.translate(error)
        }
    }

    nonisolated(nonsending) func write<T: Sendable>(_ body: @escaping @Sendable (StoreWriter) throws -> T) async throws(ProtocolError) -> T {
        do {
            return try await store.write(body)
        } catch {
            throw Self.translate(error)
        }
    }

    /// `write` for callers that are not tasks: `completion` gets the outcome on the store's
    /// writer thread, untranslated, and must only hand it on; the caller translates a
    /// failure (`translate`) once it is back on its own thread.
    func write<T: Sendable>(_ body: @escaping @Sendable (StoreWriter) throws -> T,
                            completion: @escaping @Sendable (Result<T, any Error>) -> Void) {
        store.write(body, completion: completion)
    }

    func runBlocking<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws(ProtocolError) -> T {
        do {
            return try await blocking.run(work)
        } catch {
            throw Self.translate(error)
        }
    }

    static func translate(_ error: any Error) -> ProtocolError {
        if let error = error as? ProtocolError { return error }
        // Services check names before inserting, but with several servers on one database
        // another one can take the name between the check and the insert: the constraint's
        // conflict is then the same answer the check would have given.
        switch error as? StoreError {
        case .conflict("name"): return ProtocolError(.nameTaken, "the name is taken", field: "name")
        case .conflict("username"): return ProtocolError(.usernameTaken, "the username is taken", field: "username")
        default: break
        }
        InternalFailures.report(error)
        return ProtocolError(.internalError, "the server could not complete the request")
    }
}
