/// An immutable run of bytes with a stable address, shared by reference.
///
/// Outbound data is queued on connections as chunks: one encoded frame that goes to many
/// recipients is one chunk queued on each of them, never a copy per recipient, and the
/// stable address lets a connection hand many chunks to one `writev` call.
///
/// The bytes live in the object's own allocation, after its header (the count): one `malloc`
/// a chunk, not two (an object and a buffer). A 1:1 message makes three frames on the event
/// loops (the answer, the event, the delivered receipt; docs/benchmarks.md, (aa)). So a
/// chunk is made by `filled(capacity:fill:)`, `of(_:)` or `of(string:)`, not by an `init`.
public final class ByteChunk: Sendable, CustomStringConvertible {
    // No stored properties: the count and the bytes are the allocation's tail
    // (`ManagedBufferPointer`), written once while the chunk is made and never after, so the
    // chunk is safe to share. A class with stored properties could not carry a tail.
    private typealias Storage = ManagedBufferPointer<Int, UInt8>

    private var storage: Storage { Storage(unsafeBufferObject: self) }

    /// The number of bytes.
    public var count: Int { storage.header }

    /// A chunk of `capacity` bytes that `fill` writes; `fill` returns how many it wrote.
    public static func filled(capacity: Int, fill: (UnsafeMutableRawBufferPointer) throws -> Int) rethrows -> ByteChunk {
        var storage = Storage(bufferClass: ByteChunk.self, minimumCapacity: capacity) { _, _ in 0 }
        let written = try storage.withUnsafeMutablePointerToElements { elements in
            try fill(UnsafeMutableRawBufferPointer(start: elements, count: capacity))
        }
        precondition(written >= 0 && written <= capacity, "ByteChunk fill wrote out of range")
        storage.header = written
        return unsafeDowncast(storage.buffer, to: ByteChunk.self)
    }

    /// A new chunk with a copy of `bytes`.
    public static func of(_ bytes: some Collection<UInt8>) -> ByteChunk {
        filled(capacity: bytes.count) { buffer in
            buffer.copyBytes(from: bytes)
            return bytes.count
        }
    }

    /// A new chunk with a copy of the UTF-8 form of `string`.
    public static func of(string: String) -> ByteChunk {
        of(string.utf8)
    }

    /// Read access to the bytes for the duration of `body`.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        let count = count
        return try storage.withUnsafeMutablePointerToElements { try body(UnsafeRawBufferPointer(start: $0, count: count)) }
    }

    /// The base address, valid as long as the chunk is alive (a buffer's tail does not
    /// move); for `writev`.
    var baseAddress: UnsafeRawPointer? { storage.withUnsafeMutablePointerToElements { UnsafeRawPointer($0) } }

    /// The bytes as an array (a copy).
    public var bytes: [UInt8] { withUnsafeBytes { Array($0) } }

    public var description: String { "ByteChunk(\(count) bytes)" }
}
