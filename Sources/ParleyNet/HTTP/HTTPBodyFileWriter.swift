import CParleySystem
import Glibc

/// Writes one streamed request body to a new temporary file, piece by piece, on the
/// connection's event loop; removes the file if the body never completes.
///
/// Writes go to the page cache and do not wait for the disk (no `fsync` here): whoever keeps
/// the file syncs it off the loop. A failed write (a full disk) refuses the request.
final class HTTPBodyFileWriter {
    private var descriptor: Int32
    let path: String
    let limit: Int
    private(set) var size = 0

    /// Opens a new file in `directory`, or nil when that is impossible. The name is random
    /// (64 bits, created exclusively), so concurrent uploads never meet and other local
    /// users cannot guess it.
    init?(directory: String, limit: Int) {
        let name = "upload-\(String(UInt64.random(in: 0...UInt64.max), radix: 16)).part"
        path = directory + "/" + name
        descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        self.limit = limit
        guard descriptor >= 0 else { return nil }
    }

    /// Appends `piece`; false when the file could not take it.
    func write(_ piece: UnsafeRawBufferPointer) -> Bool {
        guard descriptor >= 0, let base = piece.baseAddress else { return descriptor >= 0 }
        var written = 0
        while written < piece.count {
            let count = Glibc.write(descriptor, base + written, piece.count - written)
            if count < 0 {
                if errno == EINTR { continue }
                return false
            }
            written += count
        }
        size += piece.count
        return true
    }

    /// Closes the file and hands it over as the request's body.
    func finish() -> HTTPBodyFile? {
        guard descriptor >= 0 else { return nil }
        let failed = close(descriptor) != 0
        descriptor = -1
        if failed {
            unlink(path)
            return nil
        }
        return HTTPBodyFile(path: path, size: size)
    }

    /// Closes and removes the file: the body will never be whole.
    func abort() {
        guard descriptor >= 0 else { return }
        close(descriptor)
        descriptor = -1
        unlink(path)
    }

    deinit {
        abort()
    }
}
