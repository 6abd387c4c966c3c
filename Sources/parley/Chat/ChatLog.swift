import Foundation
import ParleySync

/// A trace of what the client saw (states, events, messages shown to the user), one line
/// each, for debugging a full-screen program that cannot print: `PARLEY_CHAT_LOG=/tmp/chat.log`.
final class ChatLog: Sendable {
    private let handle: PThreadMutex<FileHandle>

    init?(path: String) {
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        guard let handle = FileHandle(forWritingAtPath: path) else { return nil }
        self.handle = PThreadMutex(handle)
    }

    deinit {
        handle.withLock { try? $0.close() }
    }

    func write(_ line: String) {
        let stamp = String(format: "%.3f", Date().timeIntervalSince1970)
        handle.withLock { $0.write(Data("\(stamp) \(line)\n".utf8)) }
    }
}
