import CParleySystem
import Synchronization
import ParleySync

/// Settings of a listening server.
public struct TCPServerOptions: Sendable {
    /// The listen backlog per loop.
    public var backlog: Int32
    /// Refuse connections beyond this many open at once (across all loops).
    public var maxConnections: Int
    /// Refuse a client address's connections beyond this many open at once (0: no limit).
    public var maxConnectionsPerAddress: Int
    /// Options for every accepted connection.
    public var connection: TCPConnectionOptions
    /// A server TLS context: every accepted connection is TLS from its first byte (nil:
    /// plaintext, though a protocol may still `startTLS` later).
    public var tls: TLSContext?
    /// Sent in the clear, before closing, to a peer whose first bytes on a TLS port are not a
    /// TLS handshake (nil: just close). HTTP says to use https.
    public var plaintextReply: ByteChunk?

    public init(backlog: Int32 = 1024, maxConnections: Int = .max, maxConnectionsPerAddress: Int = 0,
                connection: TCPConnectionOptions = .init(), tls: TLSContext? = nil, plaintextReply: ByteChunk? = nil) {
        self.tls = tls
        self.plaintextReply = plaintextReply
        self.backlog = backlog
        self.maxConnections = maxConnections
        self.maxConnectionsPerAddress = maxConnectionsPerAddress
        self.connection = connection
    }
}

/// Listens on one address with one `SO_REUSEPORT` socket per event loop, so every accepted
/// connection lives on the loop that accepted it, and hands each to a new handler.
public final class TCPServer: @unchecked Sendable {
    // Invariant for `@unchecked Sendable`: `listeners[i]` is touched only on loop i; the rest is
    // immutable or atomic.

    /// Makes the handler for a newly accepted connection; called on the connection's loop.
    public typealias HandlerFactory = @Sendable (TCPConnection) -> ConnectionHandler

    /// The group whose loops serve the connections.
    public let group: EventLoopGroup
    /// The address actually bound (with the real port when 0 was asked for).
    public let localAddress: SocketAddress
    let options: TCPServerOptions
    /// `options.connection`, once for every connection accepted.
    let connectionOptions: SharedValue<TCPConnectionOptions>
    private let makeHandler: HandlerFactory
    private var listeners: [TCPListener] = []
    private let shuttingDown = Atomic<Bool>(false)
    /// Open connections per client address, when `maxConnectionsPerAddress` is set.
    private let perAddress = PThreadMutex<[String: Int]>([:])

    /// Binds `address` on every loop of `group` and starts accepting.
    public init(group: EventLoopGroup, address: SocketAddress, options: TCPServerOptions = .init(),
                makeHandler: @escaping HandlerFactory) throws(SystemError) {
        self.group = group
        self.options = options
        connectionOptions = SharedValue(options.connection)
        self.makeHandler = makeHandler
        // SO_REUSEPORT would let a second server of the same user share this port silently
        // and split the traffic. A bind without it fails if anyone holds the port.
        if address.port != 0 { try Self.checkPortIsFree(address) }
        var bound = address
        var sockets: [Int32] = []
        do throws(SystemError) {
            for _ in group.loops {
                let fd = try Self.listeningSocket(address: bound, backlog: options.backlog)
                sockets.append(fd)
                // Port 0: the first bind picks the port; the other loops bind that same port.
                if bound.port == 0, let actual = SocketAddress.local(of: fd) { bound = actual }
            }
        } catch {
            for fd in sockets { closeDescriptor(fd) }
            throw error
        }
        localAddress = bound
        listeners = zip(group.loops, sockets).map { TCPListener(fd: $1, loop: $0) }
        for listener in listeners {
            listener.server = self
            let result = PThreadMutex<SystemError?>(nil)
            let done = Semaphore()
            listener.loop.execute {
                do throws(SystemError) { try listener.start() } catch { result.withLock { $0 = error } }
                done.signal()
            }
            done.wait()
            if let error = result.withLock({ $0 }) { throw error }
        }
    }

    private static func checkPortIsFree(_ address: SocketAddress) throws(SystemError) {
        let probe = try blockingSystemCall("socket") {
            socket(address.addressFamily, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        }
        defer { closeDescriptor(probe) }
        _ = parley_setsockopt_int(probe, SOL_SOCKET, SO_REUSEADDR, 1)
        try blockingSystemCall("bind") { address.withSockAddr { parley_bind(probe, $0, $1) } }
    }

    private static func listeningSocket(address: SocketAddress, backlog: Int32) throws(SystemError) -> Int32 {
        let fd = try blockingSystemCall("socket") {
            socket(address.addressFamily, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        }
        do throws(SystemError) {
            _ = parley_setsockopt_int(fd, SOL_SOCKET, SO_REUSEADDR, 1)
            try blockingSystemCall("setsockopt(SO_REUSEPORT)") { parley_setsockopt_int(fd, SOL_SOCKET, SO_REUSEPORT, 1) }
            try blockingSystemCall("bind") { address.withSockAddr { parley_bind(fd, $0, $1) } }
            try blockingSystemCall("listen") { listen(fd, backlog) }
        } catch {
            closeDescriptor(fd)
            throw error
        }
        return fd
    }

    /// Connections open on every loop right now.
    var openConnections: Int { group.metrics.openConnections }

    func handler(for connection: TCPConnection) -> ConnectionHandler { makeHandler(connection) }

    /// Takes a place for a new connection from `address`; false when the address has its
    /// share. Every true is matched by `releaseAddress` when the connection closes.
    func admit(address: String) -> Bool {
        let limit = options.maxConnectionsPerAddress
        guard limit > 0 else { return true }
        return perAddress.withLock { table in
            let count = table[address, default: 0]
            guard count < limit else { return false }
            table[address] = count + 1
            return true
        }
    }

    func releaseAddress(_ address: String) {
        guard options.maxConnectionsPerAddress > 0 else { return }
        perAddress.withLock { table in
            let count = (table[address] ?? 1) - 1
            table[address] = count > 0 ? count : nil
        }
    }

    /// Whether a graceful shutdown has begun.
    public var isShuttingDown: Bool { shuttingDown.load(ordering: .relaxed) }

    /// Stops accepting, asks every open connection to finish (`connectionShouldShutDown`),
    /// waits up to `timeout` for them to close, then closes whatever is left.
    /// Returns the number of connections that had to be cut. Call off the loops.
    @discardableResult
    public func shutdown(timeout: Duration = .seconds(5)) -> Int {
        guard !shuttingDown.exchange(true, ordering: .acquiringAndReleasing) else { return 0 }
        for listener in listeners {
            listener.loop.execute {
                listener.stop()
                for connection in listener.loop.connections(of: self) { connection.requestShutdown() }
            }
        }
        let deadline = MonotonicClock.now() &+ timeout.nanoseconds
        while MonotonicClock.now() < deadline && remainingConnections() > 0 {
            usleep(10_000)
        }
        let cut = Atomic<Int>(0)
        let done = Semaphore()
        for listener in listeners {
            listener.loop.execute {
                for connection in listener.loop.connections(of: self) {
                    cut.add(1, ordering: .relaxed)
                    connection.closeNow(.shutdown)
                }
                done.signal()
            }
        }
        for _ in listeners { done.wait() }
        return cut.load(ordering: .relaxed)
    }

    private func remainingConnections() -> Int {
        let count = Atomic<Int>(0)
        let done = Semaphore()
        for listener in listeners {
            listener.loop.execute {
                count.add(listener.loop.connections(of: self).count, ordering: .relaxed)
                done.signal()
            }
        }
        for _ in listeners { done.wait() }
        return count.load(ordering: .relaxed)
    }
}
