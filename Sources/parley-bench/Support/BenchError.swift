/// Why a bench command could not do what it was asked.
enum BenchError: Error, CustomStringConvertible {
    /// The command line was wrong; the text says how.
    case usage(String)
    /// A system call or file read failed.
    case system(String)
    /// The measurement could not be made (no connection opened, a worker died, …).
    case failed(String)

    /// Whether the command line was at fault (exit status 2 rather than 1).
    var isUsage: Bool {
        if case .usage = self { return true }
        return false
    }

    var description: String {
        switch self {
        case .usage(let text): return "usage: \(text)"
        case .system(let text): return text
        case .failed(let text): return text
        }
    }
}

extension Result where Failure == BenchError {
    /// Why it failed, or nil for a success: the set-up steps' tally of reasons.
    var failureReason: String? {
        guard case .failure(let error) = self else { return nil }
        return "\(error)"
    }
}
