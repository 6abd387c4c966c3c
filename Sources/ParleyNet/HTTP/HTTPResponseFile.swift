import CParleySystem
import Glibc

/// A response body read from an open file as the peer takes it, for bodies too large to hold
/// in memory (downloads of uploaded files): the server queues a piece, waits until the
/// socket has taken it, then reads the next, so a download costs one piece of memory
/// whatever the file's size. Each piece is read on `pool`, never on the event loop: a read
/// that waits for the disk (a cold file, a busy or network disk) would stall every other
/// connection of the loop meanwhile. The descriptor is closed in `deinit`.
public final class HTTPResponseFile: Sendable {
    private let descriptor: Int32
    /// Where the body starts in the file.
    public let offset: Int
    /// How many bytes the body has.
    public let length: Int
    /// Where the pieces are read.
    let pool: BlockingPool

    /// The bytes read per piece.
    static let pieceBytes = 256 * 1024

    /// Opens `path` (no symlinks) for `length` bytes from `offset`, to be read on `pool`;
    /// throws a `SystemError`. Opening blocks too: call it off the event loop.
    public init(path: String, offset: Int, length: Int, pool: BlockingPool) throws(SystemError) {
        let fd = parley_open_readonly(path)
        guard fd >= 0 else { throw SystemError(call: "open", errno: parley_errno()) }
        descriptor = fd
        self.offset = offset
        self.length = length
        self.pool = pool
    }

    deinit {
        close(descriptor)
    }

    /// Reads a piece (`read(at:count:)`) on the pool and hands it to `completion` on `loop`.
    func read(at position: Int, count: Int, on loop: EventLoop,
              completion: @escaping @Sendable (Result<ByteChunk, any Error>) -> Void) {
        pool.submit(on: loop, { try self.read(at: position, count: count) }, completion: completion)
    }

    /// Up to `count` bytes at `position` of the body (0-based within it); fewer at the end,
    /// or if the file shrank. Blocks on the disk. Throws a `SystemError`.
    func read(at position: Int, count: Int) throws -> ByteChunk {
        let wanted = max(0, min(count, length - position))
        return try ByteChunk.filled(capacity: wanted) { buffer in
            var total = 0
            while total < wanted, let base = buffer.baseAddress {
                let fileOffset = off_t(offset + position + total)
                let result = try systemCall("pread") { pread(descriptor, base + total, wanted - total, fileOffset) }
                guard case .processed(let count) = result, count > 0 else { break }
                total += count
            }
            return total
        }
    }
}
