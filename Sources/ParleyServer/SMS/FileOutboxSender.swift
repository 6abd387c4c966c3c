import Foundation
import ParleyCore

/// The development SMS "gateway": appends `{"phone","code","at"}` as one JSON line to a file
/// (`<data>/sms-outbox.jsonl`), where a developer or a test reads the code.
struct FileOutboxSender: SMSSending {
    let path: String
    let blocking: BlockingExecutor

    func send(phone: String, code: String) async throws {
        let line = try SMSMessage(phone: phone, code: code, at: Int64(Date().timeIntervalSince1970 * 1000)).jsonLine()
        let path = self.path
        try await blocking.run {
            let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
            guard fd >= 0 else { throw SMSDeliveryError.outboxUnwritable(errno) }
            defer { close(fd) }
            // One write of the whole line, with O_APPEND: concurrent senders never interleave.
            let written = line.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            guard written == line.count else { throw SMSDeliveryError.outboxUnwritable(errno) }
        }
    }
}

/// What an SMS sender delivers.
struct SMSMessage: Codable, Sendable {
    var phone: String
    var code: String
    var at: Int64

    func jsonLine() throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return Array(try encoder.encode(self)) + [0x0A]
    }
}

/// Why a code could not be handed to the SMS gateway (for logs; users see
/// `sms_delivery_failed`).
enum SMSDeliveryError: Error, CustomStringConvertible {
    case outboxUnwritable(Int32)
    case gatewayStatus(Int)
    case gatewayUnreachable(String)

    var description: String {
        switch self {
        case .outboxUnwritable(let code): return "the SMS outbox file cannot be written (errno \(code))"
        case .gatewayStatus(let status): return "the SMS gateway answered HTTP \(status)"
        case .gatewayUnreachable(let reason): return "the SMS gateway could not be reached: \(reason)"
        }
    }
}
