import Glibc
import ParleySync

/// A request body that was written to a temporary file as it arrived (see
/// `HTTPBodyStreaming`), instead of being held in memory.
///
/// The file belongs to this object until someone `claim`s it: one that is never claimed
/// (the handler failed, the connection closed first, the request was dropped) is removed
/// when the last reference goes, so no upload leaves a stray file behind.
public final class HTTPBodyFile: Sendable, Equatable, CustomStringConvertible {
    /// Where the bytes are.
    public let path: String
    /// How many bytes the body had.
    public let size: Int
    /// Whether the file was handed over (then this object no longer removes it).
    private let claimed = PThreadMutex(false)

    init(path: String, size: Int) {
        self.path = path
        self.size = size
    }

    /// Hands the file over: the caller now moves or removes it. Nil when it was claimed
    /// before (each body is used once).
    public func claim() -> String? {
        claimed.withLock { taken in
            guard !taken else { return nil }
            taken = true
            return path
        }
    }

    deinit {
        if !claimed.withLock({ $0 }) { unlink(path) }
    }

    public static func == (lhs: HTTPBodyFile, rhs: HTTPBodyFile) -> Bool { lhs === rhs }

    public var description: String { "HTTPBodyFile(\(size) bytes)" }
}
