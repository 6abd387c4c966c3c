import CParleySystem

/// A failed system call: its name and `errno`.
public struct SystemError: Error, Equatable, CustomStringConvertible {
    /// The system call that failed, e.g. `"accept4"`.
    public let call: String
    /// The `errno` it left.
    public let errno: Int32

    /// Creates an error for `call` with `errno`.
    public init(call: String, errno: Int32) {
        self.call = call
        self.errno = errno
    }

    public var description: String {
        let text = strerror(errno).map { String(cString: $0) } ?? "errno \(errno)"
        return "\(call): \(text) (errno \(errno))"
    }
}

/// The outcome of a non-blocking system call.
public enum IOResult<Value> {
    /// The call did its work and returned `Value`.
    case processed(Value)
    /// The call would have blocked (`EAGAIN`/`EWOULDBLOCK`).
    case wouldBlock
}

/// Every system call goes through here: `EINTR` is retried, `EAGAIN` becomes `.wouldBlock`,
/// and any other failure throws a `SystemError` with the call's name and `errno`.
@inline(__always)
func systemCall<T: FixedWidthInteger>(_ name: String, _ body: () -> T) throws(SystemError) -> IOResult<T> {
    while true {
        let result = body()
        if result >= 0 { return .processed(result) }
        let code = parley_errno()
        switch code {
        case EINTR: continue
        case EAGAIN, EWOULDBLOCK: return .wouldBlock
        default: throw SystemError(call: name, errno: code)
        }
    }
}

/// Like `systemCall`, for calls that never legitimately return `EAGAIN`.
@inline(__always)
@discardableResult
func blockingSystemCall<T: FixedWidthInteger>(_ name: String, _ body: () -> T) throws(SystemError) -> T {
    switch try systemCall(name, body) {
    case .processed(let value): return value
    case .wouldBlock: throw SystemError(call: name, errno: EAGAIN)
    }
}

/// Closes a descriptor; a free function so types with their own `close()` can call it.
@inline(__always)
func closeDescriptor(_ fd: Int32) {
    _ = close(fd)
}
