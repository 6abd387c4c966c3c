import Foundation
import ParleyCore
import ParleyProtocol
@testable import ParleySQLite
import TestSupport
import Testing

/// Opens a store on a new file in a fresh directory, runs `body`, then closes the store and
/// removes the directory, whether `body` returns or throws.
func withStore(readers: Int = 2, _ body: (SQLiteStore, TemporaryDirectory) async throws -> Void) async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let store = try SQLiteStore(path: directory.file("parley.sqlite"), readers: readers)
    defer { store.close() }
    try await body(store, directory)
}

/// A password account as registration makes it.
func newUser(_ username: String?, phone: String? = nil, at time: Int64 = 1_700_000_000_000) -> NewUser {
    NewUser(username: username, passwordHash: username.map { "$argon2id$hash-of-\($0)" }, phone: phone, createdAt: time)
}

/// Holds the store's writer thread inside a write until opened, so that the writes queued
/// meanwhile are all taken together as the next batch.
final class WriterGate: Sendable {
    private let release = DispatchSemaphore(value: 0)
    private let entered = DispatchSemaphore(value: 0)

    /// Queues a write that blocks the writer (after running `body`), and returns once the
    /// writer is inside it. Await the returned task after `open()`.
    static func hold(_ store: SQLiteStore, running body: @escaping @Sendable (StoreWriter) throws -> Void = { _ in })
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
