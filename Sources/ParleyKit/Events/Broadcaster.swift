import Foundation
import ParleySync

/// Hands every value to each of its subscribers' `AsyncStream`s. An `AsyncStream` has a
/// single consumer, and an app has several views that each want the events, so every
/// subscriber gets a stream of its own.
final class Broadcaster<Element: Sendable>: Sendable {
    private struct State {
        var subscribers: [UUID: AsyncStream<Element>.Continuation] = [:]
        /// The latest value, given to new subscribers first when `replaysLatest`.
        var latest: Element?
    }

    private let state = PThreadMutex(State())
    private let replaysLatest: Bool
    private let bufferLimit: Int

    /// - Parameters:
    ///   - initial: the value a new subscriber starts with (when `replaysLatest`).
    ///   - replaysLatest: whether a new subscriber first receives the latest value (right for
    ///     a state, wrong for events).
    ///   - bufferLimit: values kept for a subscriber that does not keep up; beyond it the
    ///     oldest are dropped, so a forgotten subscriber cannot grow memory without bound.
    init(initial: Element? = nil, replaysLatest: Bool = false, bufferLimit: Int = 10_000) {
        self.replaysLatest = replaysLatest
        self.bufferLimit = bufferLimit
        state.withLock { $0.latest = initial }
    }

    /// A new stream of the values published from now on.
    func subscribe() -> AsyncStream<Element> {
        let id = UUID()
        let (stream, continuation) = AsyncStream.makeStream(of: Element.self, bufferingPolicy: .bufferingNewest(bufferLimit))
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { _ = $0.subscribers.removeValue(forKey: id) }
        }
        state.withLock { state in
            if replaysLatest, let latest = state.latest { continuation.yield(latest) }
            state.subscribers[id] = continuation
        }
        return stream
    }

    /// Sends `value` to every subscriber.
    func publish(_ value: Element) {
        // Yield under the lock so that two publishers cannot interleave their values
        // differently for different subscribers.
        state.withLock { state in
            state.latest = value
            for continuation in state.subscribers.values { continuation.yield(value) }
        }
    }

    /// The latest value published (or the initial one).
    var latest: Element? { state.withLock { $0.latest } }

    /// Ends every subscriber's stream.
    func finish() {
        let continuations = state.withLock { state in
            defer { state.subscribers.removeAll() }
            return Array(state.subscribers.values)
        }
        for continuation in continuations { continuation.finish() }
    }

    deinit {
        finish()
    }
}
