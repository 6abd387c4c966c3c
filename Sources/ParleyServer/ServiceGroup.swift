import Foundation
import ParleyNet
import ParleySync

/// The parts of a running server as one lifecycle: each is started in turn and, once started,
/// stopped by the group; a part that fails to start stops those started before it, last
/// first; `shutdown(timeout:)` stops them all in the reverse order of their start.
///
/// Peers that must wind down at the same time (listeners, so that the whole stop stays within
/// one timeout) go into a group of their own that stops `together`, started as one part.
final class ServiceGroup: Sendable {
    /// How `shutdown(timeout:)` stops the parts.
    enum StopOrder: Sendable {
        /// One after another, the last started first: what starts on top of another stops before it.
        case reverse
        /// All at once, each on its own thread, each given the whole timeout.
        case together
    }

    private struct Part: Sendable {
        let name: String
        let stop: @Sendable (Duration) -> Void
    }

    private let order: StopOrder
    private let logger: Logger?
    /// The parts started and not yet stopped, in the order they started.
    private let parts = PThreadMutex<[Part]>([])

    /// An empty group whose parts stop in `order`; `logger` hears each part stop (debug).
    init(stopOrder order: StopOrder = .reverse, logger: Logger? = nil) {
        self.order = order
        self.logger = logger
    }

    /// The names of the parts running, in the order they started.
    var running: [String] { parts.withLock { $0.map(\.name) } }

    /// Starts a part: `start` makes it and returns it, and the group keeps `stop` to stop it
    /// with a timeout. When `start` throws, the parts started before it are stopped, last
    /// first, with no time to finish, and the error is rethrown.
    @discardableResult
    func start<Value: Sendable>(_ name: String, _ start: () throws -> Value,
                                stop: @escaping @Sendable (Value, Duration) -> Void) throws -> Value {
        let value: Value
        do {
            value = try start()
        } catch {
            logger?.debug("a part failed to start; stopping those started", ["part": .string(name)])
            stopAll(taking: .zero, order: .reverse)
            throw error
        }
        parts.withLock { $0.append(Part(name: name, stop: { stop(value, $0) })) }
        return value
    }

    /// Stops every part started, in the group's order, each within `timeout`. A second call
    /// finds nothing left to stop.
    func shutdown(timeout: Duration) {
        stopAll(taking: timeout, order: order)
    }

    private func stopAll(taking timeout: Duration, order: StopOrder) {
        let taken = parts.withLock { parts -> [Part] in
            defer { parts.removeAll() }
            return parts
        }
        switch order {
        case .reverse:
            for part in taken.reversed() {
                logger?.debug("stopping", ["part": .string(part.name)])
                part.stop(timeout)
            }
        case .together:
            let done = DispatchSemaphore(value: 0)
            for part in taken {
                logger?.debug("stopping", ["part": .string(part.name)])
                Thread.detachNewThread {
                    part.stop(timeout)
                    done.signal()
                }
            }
            for _ in taken { done.wait() }
        }
    }
}
