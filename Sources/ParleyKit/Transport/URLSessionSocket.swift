#if canImport(Darwin)
import Foundation

/// One `URLSessionWebSocketTask` as a `TransportSocket`.
final class URLSessionSocket: TransportSocket, @unchecked Sendable {
    // Invariant for `@unchecked Sendable`: `task` is thread-safe (URLSession's contract) and
    // never reassigned; the stream's continuation is Sendable.
    let inputs: AsyncStream<TransportInput>
    private let task: URLSessionWebSocketTask

    init(task: URLSessionWebSocketTask) {
        self.task = task
        let (stream, continuation) = AsyncStream.makeStream(of: TransportInput.self)
        inputs = stream
        Task {
            while true {
                do {
                    switch try await task.receive() {
                    case .string(let text): continuation.yield(.text(text))
                    case .data(let data): continuation.yield(.text(String(decoding: data, as: UTF8.self)))
                    @unknown default: break
                    }
                } catch {
                    let code = task.closeCode == .invalid ? 1006 : task.closeCode.rawValue
                    continuation.yield(.closed(code: code, reason: error.localizedDescription))
                    continuation.finish()
                    return
                }
            }
        }
    }

    func send(text: String) {
        task.send(.string(text)) { _ in }
    }

    func close(code: Int) {
        task.cancel(with: URLSessionWebSocketTask.CloseCode(rawValue: code) ?? .normalClosure, reason: nil)
    }
}
#endif
