/// Why a message log refused or failed an operation.
public enum LogError: Error, Equatable, CustomStringConvertible {
    /// A system call failed (`operation` names it and its file); `errno` says why.
    case system(operation: String, errno: Int32)
    /// A record does not continue its conversation: the log expected `expected`.
    case sequenceGap(conversation: UInt64, expected: UInt64, got: UInt64)
    /// A payload above the log's limit (`MessageLogOptions.maxPayloadBytes`).
    case payloadTooLarge(bytes: Int, limit: Int)
    /// What is on disk is damaged somewhere recovery may not repair (not at the log's tail).
    case corrupt(String)
    /// An earlier write or sync failed; nothing more is accepted, since after a failed
    /// `fdatasync` the kernel may have dropped the dirty pages: reopen to recover.
    case failed(String)
    /// The log was closed.
    case closed
    /// The engine refused (LMDB's return code and message).
    case engine(code: Int32, message: String)

    public var description: String {
        switch self {
        case .system(let operation, let errno): return "\(operation) failed: errno \(errno)"
        case .sequenceGap(let conversation, let expected, let got):
            return "conversation \(conversation): expected seq \(expected), got \(got)"
        case .payloadTooLarge(let bytes, let limit): return "payload of \(bytes) bytes is over the limit of \(limit)"
        case .corrupt(let text): return "corrupt log: \(text)"
        case .failed(let text): return "log failed earlier: \(text)"
        case .closed: return "log closed"
        case .engine(let code, let message): return "engine error \(code): \(message)"
        }
    }
}
