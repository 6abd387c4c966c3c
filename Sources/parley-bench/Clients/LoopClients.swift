import ParleyNet
import Synchronization

/// The client WebSockets of one event loop: opens them a window at a time, keeps them, and
/// counts what became of them.
///
/// One instance is the delegate of every socket on its loop (a delegate object per socket
/// would add to the load generator's own memory); a socket's text messages go to `onText`.
final class LoopClients: WebSocketDelegate, @unchecked Sendable {
    // Invariant for `@unchecked Sendable`: `sockets`, `plan`, `started`, `inFlight`,
    // `closingDeliberately` and `onText` are touched only on `loop`; the counters are
    // atomics and `errors` locks, so other threads may read those.

    /// The loop every socket here lives on.
    let loop: EventLoop
    /// The open sockets, in the order they opened (closed ones stay, `isOpen` is false).
    private(set) var sockets: [WebSocketConnection] = []
    /// Handles text messages; set on the loop.
    var onText: ((WebSocketConnection, String) -> Void)?

    /// Connections planned, opened, failed to open, and closed after opening.
    let planned = Atomic<Int>(0), opened = Atomic<Int>(0), failed = Atomic<Int>(0), closed = Atomic<Int>(0)
    /// Why connections failed or closed unexpectedly.
    let errors = ErrorTally()

    private var plan: ConnectPlan?
    private var started = 0
    private var inFlight = 0
    private var closingDeliberately = false

    init(loop: EventLoop) {
        self.loop = loop
    }

    /// Whether every planned connection has opened or failed.
    var settled: Bool {
        opened.load(ordering: .relaxed) + failed.load(ordering: .relaxed) >= planned.load(ordering: .relaxed)
    }

    /// Connections open now.
    var openNow: Int { opened.load(ordering: .relaxed) - closed.load(ordering: .relaxed) }

    /// Starts opening `plan.count` more connections; returns at once. Safe from any thread:
    /// they count as planned immediately, so `settled` is false until they are done.
    func connect(_ plan: ConnectPlan) {
        planned.add(plan.count, ordering: .relaxed)
        loop.execute {
            self.plan = plan
            self.started = 0
            self.connectMore()
        }
    }

    private func connectMore() {
        guard let plan else { return }
        while started < plan.count && inFlight < plan.window {
            let source = plan.sources.isEmpty ? nil : plan.sources[(plan.sourceOffset + started) % plan.sources.count]
            started += 1
            do {
                try WebSocketClient.connect(to: plan.target, path: plan.path, localAddress: source, on: loop, delegate: self)
                inFlight += 1
            } catch {
                // Failed before any I/O (no descriptor, no port for this source address).
                failed.add(1, ordering: .relaxed)
                errors.add("connect: \(error)")
            }
        }
    }

    /// Starts the closing handshake on every open socket. Call on the loop.
    func closeAll() {
        closingDeliberately = true
        for socket in sockets where socket.isOpen { socket.close() }
    }

    // MARK: WebSocketDelegate

    func webSocketDidOpen(_ socket: WebSocketConnection) {
        sockets.append(socket)
        opened.add(1, ordering: .relaxed)
        inFlight -= 1
        connectMore()
    }

    func webSocketDidFailToConnect(reason: String) {
        failed.add(1, ordering: .relaxed)
        errors.add("open: \(reason)")
        inFlight -= 1
        connectMore()
    }

    func webSocket(_ socket: WebSocketConnection, didReceiveText text: String) {
        onText?(socket, text)
    }

    func webSocket(_ socket: WebSocketConnection, didReceiveBinary bytes: [UInt8]) {
        errors.add("unexpected binary message")
    }

    func webSocketDidClose(_ socket: WebSocketConnection, code: WebSocketCloseCode, reason: String) {
        closed.add(1, ordering: .relaxed)
        if !closingDeliberately {
            errors.add("closed by server or network: \(code)\(reason.isEmpty ? "" : " \(reason)")")
        }
    }
}
