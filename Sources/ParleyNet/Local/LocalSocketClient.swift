import CParleySystem
import Glibc

/// The other end of a `LocalSocketServer`: one connection, request lines out, response
/// lines back, blocking (for the command line).
public final class LocalSocketClient {
    private let descriptor: Int32
    private let path: String
    private var pending: [UInt8] = []

    /// Connects to `path`. Throws `LocalSocketError.system` with `ECONNREFUSED` for a socket
    /// nobody listens on (a stale one) and `ENOENT` when there is none.
    public init(path: String, timeout: Duration) throws {
        let fd = parley_unix_connect(path)
        guard fd >= 0 else { throw LocalSocketError.system(SystemError(call: "connect \(path)", errno: parley_errno())) }
        _ = parley_set_timeouts(fd, Int32(clamping: max(1, timeout.components.seconds)))
        descriptor = fd
        self.path = path
    }

    deinit {
        closeDescriptor(descriptor)
    }

    /// Sends `line` and returns the server's one-line answer (without its newline).
    public func exchange(_ line: String) throws -> String {
        guard LocalSocketServer.writeLine(line, to: descriptor) else { throw LocalSocketError.noAnswer(path) }
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let answer = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                return answer
            }
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && parley_errno() == EINTR { continue }
            guard count > 0 else { throw LocalSocketError.noAnswer(path) }
            pending.append(contentsOf: chunk[..<count])
        }
    }

    /// Whether a server answers on `path` now: a stale socket file (a crash) says no.
    public static func isListening(_ path: String) -> Bool {
        let fd = parley_unix_connect(path)
        guard fd >= 0 else { return false }
        closeDescriptor(fd)
        return true
    }
}
