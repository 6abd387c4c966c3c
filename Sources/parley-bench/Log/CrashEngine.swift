import ParleyLog

/// The engines the crash test drives, opened the same way by the child and by the parent.
enum CrashEngine: String, CaseIterable, Sendable {
    case segment, lmdb

    /// Opens (recovering) the log in `directory`.
    func open(_ directory: String) throws -> any MessageLog {
        switch self {
        case .segment: return try SegmentLog(directory: directory)
        case .lmdb: return try LMDBLog(directory: directory, options: MessageLogOptions(mapBytes: 1 << 30))
        }
    }

    static func parse(_ text: String) throws(BenchError) -> CrashEngine {
        guard let engine = CrashEngine(rawValue: text) else { throw .usage("--engine takes segment or lmdb, not '\(text)'") }
        return engine
    }
}
