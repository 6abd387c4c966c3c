import ParleyProtocol

/// The core's way into the store and the blocking pool: every storage or blocking failure
/// comes out as a `ProtocolError` (`internal_error` unless the closure threw a protocol
/// error itself), so services speak one error type.
public struct StoreGateway: Sendable {
    let store: Store
    let blocking: BlockingExecutor

    public init(store: Store, blocking: BlockingExecutor) {
        self.store = store
        self.blocking = blocking
    }

    func read<T: Sendable>(_ body: @escaping @Sendable (StoreReader) throws -> T) async throws(ProtocolError) -> T {
        do {
            return try await store.read(body)
        } catch {
            throw Self.translate(error)
        }
    }

    func write<T: Sendable>(_ body: @escaping @Sendable (StoreWriter) throws -> T) async throws(ProtocolError) -> T {
        do {
            return try await store.write(body)
        } catch {
            throw Self.translate(error)
        }
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
        return ProtocolError(.internalError, "the server could not complete the request")
    }
}
