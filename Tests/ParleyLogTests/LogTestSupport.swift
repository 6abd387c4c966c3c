import Foundation
import ParleyLog

/// The engines every contract test runs on.
enum Engine: String, CaseIterable, Sendable, CustomStringConvertible {
    case segment, lmdb

    var description: String { rawValue }

    func open(_ directory: String, options: MessageLogOptions = MessageLogOptions()) throws -> any MessageLog {
        switch self {
        case .segment: return try SegmentLog(directory: directory, options: options)
        case .lmdb: return try LMDBLog(directory: directory, options: MessageLogOptions(mapBytes: 64 * 1024 * 1024))
        }
    }
}

/// A fresh directory under the system's temporary directory, removed by `remove()`.
struct TemporaryDirectory {
    let path: String

    init() {
        path = NSTemporaryDirectory() + "parley-log-test-" + UUID().uuidString
    }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}

/// A payload that says which record it belongs to, so a read can be checked byte for byte.
func payload(_ conversation: UInt64, _ seq: UInt64, size: Int = 64) -> [UInt8] {
    (0..<size).map { UInt8(truncatingIfNeeded: conversation &* 31 &+ seq &* 7 &+ UInt64($0)) }
}

func record(_ conversation: UInt64, _ seq: UInt64, size: Int = 64) -> LogRecord {
    LogRecord(conversation: conversation, seq: seq, payload: payload(conversation, seq, size: size))
}
