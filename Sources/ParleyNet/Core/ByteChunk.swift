/// An immutable run of bytes with a stable address, shared by reference.
///
/// Outbound data is queued on connections as chunks: one encoded frame that goes to many
/// recipients is one chunk queued on each of them, never a copy per recipient, and the
/// stable address lets a connection hand many chunks to one `writev` call.
public final class ByteChunk: Sendable, CustomStringConvertible {
    // Written once in `init`, never mutated after, freed in `deinit`: safe to share.
    private nonisolated(unsafe) let storage: UnsafeMutableRawBufferPointer

    /// The number of bytes.
    public var count: Int { storage.count }

    /// Copies `bytes` into a new chunk.
    public convenience init(_ bytes: some Collection<UInt8>) {
        self.init(capacity: bytes.count) { buffer in
            buffer.copyBytes(from: bytes)
            return bytes.count
        }
    }

    /// Copies the UTF-8 form of `string` into a new chunk.
    public convenience init(string: String) {
        self.init(Array(string.utf8))
    }

    /// Allocates `capacity` bytes and lets `fill` write them; `fill` returns how many it wrote.
    public init(capacity: Int, fill: (UnsafeMutableRawBufferPointer) throws -> Int) rethrows {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(capacity, 1), alignment: 16)
        do {
            let written = try fill(UnsafeMutableRawBufferPointer(rebasing: buffer[0..<capacity]))
            precondition(written >= 0 && written <= capacity, "ByteChunk fill wrote out of range")
            storage = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<written])
        } catch {
            buffer.deallocate()
            throw error
        }
    }

    deinit {
        storage.deallocate()
    }

    /// Read access to the bytes for the duration of `body`.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(storage))
    }

    /// The base address, valid as long as the chunk is alive; for `writev`.
    var baseAddress: UnsafeRawPointer? { UnsafeRawPointer(storage.baseAddress) }

    /// The bytes as an array (a copy).
    public var bytes: [UInt8] { Array(UnsafeRawBufferPointer(storage)) }

    public var description: String { "ByteChunk(\(count) bytes)" }
}
