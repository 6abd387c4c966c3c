import CParleySystem
import Glibc

/// A file opened for reading and what `fstat` says it is; closed in `deinit`.
///
/// Opened with `O_NOFOLLOW`: the path was resolved by `realpath` just before, so a symlink
/// here means the tree changed in between, and refusing is the safe answer.
final class OpenFile {
    enum Kind {
        case regular(stat)
        case directory
        case other
        case missing
        case failed(SystemError)
    }

    let kind: Kind
    private let descriptor: Int32

    init(path: String) {
        let fd = parley_open_readonly(path)
        descriptor = fd
        guard fd >= 0 else {
            let code = parley_errno()
            switch code {
            case ENOENT, ENOTDIR, EACCES, ELOOP, ENAMETOOLONG: kind = .missing
            default: kind = .failed(SystemError(call: "open", errno: code))
            }
            return
        }
        var info = stat()
        if fstat(fd, &info) != 0 {
            kind = .failed(SystemError(call: "fstat", errno: parley_errno()))
        } else if info.st_mode & S_IFMT == S_IFREG {
            kind = .regular(info)
        } else if info.st_mode & S_IFMT == S_IFDIR {
            kind = .directory
        } else {
            kind = .other
        }
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// Reads up to `size` bytes from the start. Fewer come back if the file shrank since
    /// `fstat`; bytes it gained are left out, so the body matches the headers. Throws a
    /// `SystemError`.
    func read(size: Int) throws -> ByteChunk {
        try ByteChunk.filled(capacity: size) { buffer in
            var total = 0
            while total < size, let base = buffer.baseAddress {
                let result = try systemCall("read") { Glibc.read(descriptor, base + total, size - total) }
                guard case .processed(let count) = result else {
                    throw SystemError(call: "read", errno: EAGAIN)
                }
                if count == 0 { break }
                total += count
            }
            return total
        }
    }
}
