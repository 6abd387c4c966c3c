/// What one database engine supplies to `ThreadedStore`: its connections' transaction rules
/// and its SQL. Everything else (threads, queues, lifecycle, group commit) is the engine's,
/// written once for every backend.
///
/// A backend is a small `Sendable` value: it is shared by every thread of the store. The
/// connections themselves are not: each writer session and each reader connection is handed
/// to exactly one thread, which alone uses it.
package protocol StoreBackend: Sendable {
    /// What a `write` closure gets (the stores use `any StoreWriter`).
    associatedtype Writer
    /// What a `read` closure gets (the stores use `any StoreReader`).
    associatedtype Reader
    /// One writer thread's connection, with its transaction statements.
    associatedtype WriteSession: StoreWriteSession where WriteSession.Writer == Writer
    /// One reader thread's connection.
    associatedtype ReadConnection: AnyObject

    /// The start of the threads' names: the writers are `<prefix>-w` (or `-w0`, `-w1`, …
    /// when there are several), the readers `<prefix>-r0`, `-r1`, …. Linux keeps 15 bytes
    /// of a thread's name, so keep it short.
    var threadNamePrefix: String { get }

    /// Whether the first run of a batch puts each write in a savepoint of its own.
    var savepoints: SavepointPolicy { get }

    /// How often, and after what pauses, a transaction that failed for a reason that says
    /// nothing about its writes (`StoreWriteSession.retryableFailure`) is run again.
    var retryRule: WriteRetryRule { get }

    /// Runs `body` on `connection` (on that connection's reader thread) in one read
    /// transaction, and translates the database's errors for the caller.
    func read<T>(on connection: ReadConnection, _ body: (Reader) throws -> T) throws -> T
}
