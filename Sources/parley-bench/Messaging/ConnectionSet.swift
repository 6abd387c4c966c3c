import Dispatch
import Glibc
import ParleyNet
import Synchronization

/// The load clients of one scenario, spread over client event loops: opens them a window at
/// a time (from several loopback source addresses), counts what became of them, and runs
/// setup steps on all of them from the main thread.
final class ConnectionSet: @unchecked Sendable {
    // Invariant for `@unchecked Sendable`: `connections` is fixed after `init`; per-loop
    // connect state lives in `connectors`, each touched only on its loop; counters are atomics.

    let group: EventLoopGroup
    let connections: [BenchConnection]
    /// TLS for every client and for registering users (`--tls`); nil: plaintext. Set before `open`.
    var tls: TLSContext?
    let opened = Atomic<Int>(0), failed = Atomic<Int>(0), closed = Atomic<Int>(0)
    let errors = ErrorTally()
    /// Closes that the scenario asked for (they are not errors).
    let expectClose = Atomic<Bool>(false)
    private let connectors: [Connector]

    /// `count` clients of `dialect`, round-robin over `loops` event loops.
    init(count: Int, dialect: Dialect, loops: Int) throws(BenchError) {
        let group: EventLoopGroup
        do {
            group = try EventLoopGroup(loopCount: loops, name: "bench-client")
        } catch {
            throw .system("cannot start event loops: \(error)")
        }
        self.group = group
        connections = (0..<count).map { BenchConnection(loop: group.loops[$0 % loops], dialect: dialect, index: $0) }
        connectors = group.loops.map { Connector(loop: $0) }
    }

    /// Opens `clients` (all of them by default) to `target`, at most `window` handshakes in
    /// flight per loop; waits until all opened or failed, or `timeout`. Returns how many opened.
    /// `then` runs on the client's loop as soon as it opens (a reconnecting client signs in
    /// at once, as a real one would).
    @discardableResult
    func open(_ clients: [BenchConnection]? = nil, target: SocketAddress, path: String, sources: [SocketAddress],
              window: Int = 200, timeout: Duration = .seconds(120), then: ((BenchConnection) -> Void)? = nil) -> Int {
        let clients = clients ?? connections
        let openedBefore = opened.load(ordering: .relaxed), failedBefore = failed.load(ordering: .relaxed)
        for client in clients {
            client.onOpen = { [unowned self] connection in
                self.opened.add(1, ordering: .relaxed)
                self.connectors[connection.loop.index].finished()
                then?(connection)
            }
            client.onFailure = { [unowned self] connection, reason in
                self.failed.add(1, ordering: .relaxed)
                self.errors.add("open: \(reason)")
                self.connectors[connection.loop.index].finished()
            }
            client.onClose = { [unowned self] _, code, reason in
                self.closed.add(1, ordering: .relaxed)
                if !self.expectClose.load(ordering: .relaxed) {
                    self.errors.add("closed by server or network: \(code)\(reason.isEmpty ? "" : " \(reason)")")
                }
            }
        }
        for (loopIndex, connector) in connectors.enumerated() {
            let mine = clients.filter { $0.loop.index == loopIndex }
            connector.loop.execute {
                connector.start(mine, target: target, path: path, sources: sources, window: window, set: self)
            }
        }
        let deadline = ContinuousClock.now + timeout
        while opened.load(ordering: .relaxed) - openedBefore + failed.load(ordering: .relaxed) - failedBefore < clients.count
                && ContinuousClock.now < deadline {
            usleep(10_000)
        }
        return opened.load(ordering: .relaxed) - openedBefore
    }

    /// Runs `body` for every client on its loop; `body` calls its completion once with a
    /// result. Waits for all (or `timeout`); a client that did not finish gives nil.
    func perform<Result: Sendable>(_ clients: [BenchConnection]? = nil, timeout: Duration = .seconds(120),
                                   _ body: @escaping @Sendable (BenchConnection, @escaping (Result) -> Void) -> Void) -> [Result?] {
        let clients = clients ?? connections
        let results = Mutex<[Result?]>(Array(repeating: nil, count: clients.count))
        let remaining = Atomic<Int>(clients.count)
        for (position, client) in clients.enumerated() {
            client.loop.execute {
                var done = false
                body(client) { value in
                    guard !done else { return }
                    done = true
                    results.withLock { $0[position] = value }
                    remaining.subtract(1, ordering: .relaxed)
                }
            }
        }
        let deadline = ContinuousClock.now + timeout
        while remaining.load(ordering: .relaxed) > 0 && ContinuousClock.now < deadline { usleep(5_000) }
        return results.withLock { $0 }
    }

    /// Closes `clients` politely and waits (bounded) until they are closed.
    func close(_ clients: [BenchConnection]? = nil, timeout: Duration = .seconds(10)) {
        let clients = clients ?? connections
        expectClose.store(true, ordering: .relaxed)
        _ = perform(clients, timeout: timeout) { (client: BenchConnection, done: @escaping (Bool) -> Void) in
            guard client.isOpen else { return done(true) }
            let previous = client.onClose
            client.onClose = { connection, code, reason in
                previous?(connection, code, reason)
                done(true)
            }
            client.close()
        }
        expectClose.store(false, ordering: .relaxed)
    }

    /// Connections open now.
    var openNow: Int { opened.load(ordering: .relaxed) - closed.load(ordering: .relaxed) }

    func shutdown() {
        group.shutdown()
    }

    /// One loop's share of an `open`: keeps `window` handshakes in flight.
    private final class Connector: @unchecked Sendable {
        // Invariant for `@unchecked Sendable`: touched only on `loop`.
        let loop: EventLoop
        private var queue: [BenchConnection] = []
        private var next = 0
        private var inFlight = 0
        private var window = 1
        private var target: SocketAddress?
        private var path = ""
        private var sources: [SocketAddress] = []
        private weak var set: ConnectionSet?

        init(loop: EventLoop) { self.loop = loop }

        func start(_ clients: [BenchConnection], target: SocketAddress, path: String, sources: [SocketAddress],
                   window: Int, set: ConnectionSet) {
            queue = clients
            next = 0
            inFlight = 0
            self.window = window
            self.target = target
            self.path = path
            self.sources = sources
            self.set = set
            more()
        }

        func finished() {
            inFlight -= 1
            more()
        }

        private func more() {
            guard let target else { return }
            while next < queue.count && inFlight < window {
                let client = queue[next]
                next += 1
                // Spread over the source addresses by client number, the same in every process.
                let source = sources.isEmpty ? nil : sources[client.index % sources.count]
                do {
                    try client.connect(to: target, path: path, source: source, tls: set?.tls)
                    inFlight += 1
                } catch {
                    set?.failed.add(1, ordering: .relaxed)
                    set?.errors.add("connect: \(error)")
                }
            }
        }
    }
}
