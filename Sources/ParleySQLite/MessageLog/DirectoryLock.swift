import Glibc

/// An exclusive `flock` on a file in a directory, held until `release()` or deinit: two
/// stores appending to one message log would each count seqs of their own.
final class DirectoryLock: @unchecked Sendable {
    // @unchecked Sendable: `fd` is set in init and only closed once, by `release()` or deinit.
    private var fd: Int32

    /// Takes the lock on `<directory>/LOCK`, failing at once if another process holds it.
    init(directory: String) throws {
        let path = directory + "/LOCK"
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw LockError(text: "open \(path): errno \(errno)") }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let failure = errno
            close(fd)
            throw LockError(text: failure == EWOULDBLOCK
                ? "\(directory) is in use by another server (its LOCK file is locked)" : "lock \(path): errno \(failure)")
        }
        self.fd = fd
    }

    deinit { release() }

    /// Gives the lock up (closing the file releases it).
    func release() {
        if fd >= 0 {
            close(fd)
            fd = -1
        }
    }

    struct LockError: Error, CustomStringConvertible {
        var text: String
        var description: String { text }
    }
}
