import ParleySync

/// Small files kept in memory, each under the path and ETag it was read with.
///
/// A hit needs the ETag the caller just computed from a fresh `fstat`, so a file that
/// changed on disk (new size, mtime or inode) is read again rather than served stale.
final class StaticFileCache: Sendable {
    private struct State {
        var entries: [String: (etag: String, chunk: ByteChunk)] = [:]
        var bytes = 0
    }

    /// The most bytes all entries may hold together.
    let capacity: Int
    /// The largest file kept.
    let maxFileBytes: Int
    private let state = PThreadMutex(State())

    init(capacity: Int, maxFileBytes: Int) {
        self.capacity = capacity
        self.maxFileBytes = maxFileBytes
    }

    /// The cached bytes of `path`, if they were read at version `etag`.
    func chunk(path: String, etag: String) -> ByteChunk? {
        state.withLock { state in
            guard let entry = state.entries[path], entry.etag == etag else { return nil }
            return entry.chunk
        }
    }

    /// Keeps `chunk` as the bytes of `path` at version `etag`, if it fits.
    func store(path: String, etag: String, chunk: ByteChunk) {
        guard chunk.count <= maxFileBytes, chunk.count <= capacity else { return }
        state.withLock { state in
            if let old = state.entries.removeValue(forKey: path) {
                state.bytes -= old.chunk.count
            }
            // Evict arbitrary entries until it fits: a web client's assets fit many times
            // over, so this runs only when something unusual fills the cache.
            while state.bytes + chunk.count > capacity, let victim = state.entries.first {
                state.entries.removeValue(forKey: victim.key)
                state.bytes -= victim.value.chunk.count
            }
            state.entries[path] = (etag, chunk)
            state.bytes += chunk.count
        }
    }

    /// The number of cached files (for tests).
    var count: Int {
        state.withLock { $0.entries.count }
    }
}
