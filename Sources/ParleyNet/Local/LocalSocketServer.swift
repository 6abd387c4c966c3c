import CParleySystem
import Glibc
import ParleySync
import Synchronization

/// A Unix domain socket that answers line-delimited requests, for the server's local admin
/// socket. Only the account the server runs as (and root) may use it: the socket file is
/// mode 0600 and every connection's peer is checked with `SO_PEERCRED` besides.
///
/// Requests are rare (an operator's commands) but some run long (a backup), so one thread
/// of its own accepts and each connection is served, blocking, on a thread of its own, away
/// from the event loops; at most `maxConnections` at once, the next one is answered `busy`
/// and closed. A connection may send several lines; each gets one line back. A peer that
/// sends nothing for `timeout` is disconnected; one whose line passes `maxLineBytes` is
/// answered `tooLong` and disconnected as soon as the byte past the limit arrives
/// (`LineFramer`), newline or not.
public final class LocalSocketServer: Sendable {
    /// Who connected, from the kernel (`SO_PEERCRED`), not from anything the peer said.
    public struct Peer: Sendable, Equatable {
        /// The peer process's user id.
        public let uid: UInt32
    }

    /// Turns one request line (without its newline) into one response line.
    public typealias Handler = @Sendable (_ line: String, _ peer: Peer) async -> String

    /// The socket's path.
    public let path: String
    private let descriptor: Int32
    private let stopping = Atomic<Bool>(false)
    private let thread = PThreadMutex<pthread_t?>(nil)
    /// Connections being served now, each on its own thread.
    private let serving = Atomic<Int>(0)
    private let maxConnections: Int
    private let maxLineBytes: Int
    private let timeoutSeconds: Int32
    private let tooLong: String
    private let busy: String
    private let handler: Handler

    /// Binds `path` (replacing a stale socket left by a crash, never a live one or any other
    /// kind of file) and starts serving.
    ///
    /// - Parameters:
    ///   - maxLineBytes: most bytes of one request line (its newline not counted).
    ///   - timeout: how long a connection may stay silent, and a response may take to send.
    ///   - tooLong: the response to a request longer than `maxLineBytes`.
    ///   - maxConnections: most connections served at once.
    ///   - busy: the one line a connection past `maxConnections` gets before it is closed.
    /// - Throws: `LocalSocketError` if another process listens on `path`, a file other than
    ///   a socket is there, or the socket cannot be made.
    public init(path: String, maxLineBytes: Int, timeout: Duration, tooLong: String,
                maxConnections: Int = 4, busy: String = "busy", handler: @escaping Handler) throws {
        self.path = path
        try Self.removeStale(path)
        let fd = parley_unix_listen(path, 16)
        guard fd >= 0 else { throw LocalSocketError.system(SystemError(call: "bind \(path)", errno: parley_errno())) }
        // The directory is private already; the mode says so of the socket itself too.
        guard chmod(path, 0o600) == 0 else {
            let code = parley_errno()
            closeDescriptor(fd)
            unlink(path)
            throw LocalSocketError.system(SystemError(call: "chmod \(path)", errno: code))
        }
        descriptor = fd
        self.maxLineBytes = maxLineBytes
        timeoutSeconds = Int32(clamping: max(1, timeout.components.seconds))
        self.tooLong = tooLong
        self.maxConnections = max(1, maxConnections)
        self.busy = busy
        self.handler = handler
        let server = self
        let handle: pthread_t
        do {
            handle = try Self.startThread(named: "parley-admin-sock") { server.acceptLoop() }
        } catch {
            closeDescriptor(fd)
            unlink(path)
            throw error
        }
        thread.withLock { $0 = handle }
    }

    /// Stops accepting, lets the connections being served finish for up to the timeout and a
    /// second (a command still running then goes on, on its own thread, and its answer is
    /// lost), closes the socket and removes its file. Later calls do nothing.
    public func stop() {
        guard !stopping.exchange(true, ordering: .acquiringAndReleasing) else { return }
        if let handle = thread.withLock({ $0 }) { pthread_join(handle, nil) }
        // Bounded: a handler waits for a task, and a caller on the task pool must not wait
        // for ever on what may need that pool to finish.
        let deadline = ContinuousClock.now + .seconds(Int64(timeoutSeconds) + 1)
        while serving.load(ordering: .acquiring) > 0 && ContinuousClock.now < deadline { usleep(10_000) }
        closeDescriptor(descriptor)
        unlink(path)
    }

    /// How many connections are being served now.
    public var connectionsServed: Int { serving.load(ordering: .acquiring) }

    /// Starts a thread running `body`.
    private static func startThread(named name: String,
                                    _ body: @escaping @Sendable () -> Void) throws(LocalSocketError) -> pthread_t {
        let box = Unmanaged.passRetained(LocalSocketThreadStart(name: name, body: body))
        var handle = pthread_t()
        let rc = pthread_create(&handle, nil, { raw in
            guard let raw else { return nil }
            let start = Unmanaged<LocalSocketThreadStart>.fromOpaque(raw).takeRetainedValue()
            start.name.withCString { parley_set_thread_name($0) }
            start.body()
            return nil
        }, box.toOpaque())
        guard rc == 0 else {
            box.release()
            throw LocalSocketError.system(SystemError(call: "pthread_create", errno: rc))
        }
        return handle
    }

    /// A socket file at `path` that nobody answers on is what a crash leaves: remove it. A
    /// live one means another server uses this data directory.
    private static func removeStale(_ path: String) throws {
        var status = stat()
        guard lstat(path, &status) == 0 else { return }
        guard status.st_mode & 0o170000 == 0o140000 else { throw LocalSocketError.notASocket(path) }
        let probe = parley_unix_connect(path)
        if probe >= 0 {
            closeDescriptor(probe)
            throw LocalSocketError.inUse(path)
        }
        unlink(path)
    }

    private func acceptLoop() {
        while !stopping.load(ordering: .acquiring) {
            // A short poll, so that `stop()` is noticed without a wake-up descriptor.
            var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&waiting, 1, 200) > 0 else { continue }
            let connection = parley_accept_blocking(descriptor)
            guard connection >= 0 else { continue }
            // Counted before the thread starts, so that `stop()` waits for it.
            guard serving.add(1, ordering: .acquiringAndReleasing).newValue <= maxConnections else {
                refuse(connection)
                continue
            }
            let server = self
            guard let handle = try? Self.startThread(named: "parley-admin-conn", {
                server.serve(connection)
                closeDescriptor(connection)
                server.serving.subtract(1, ordering: .acquiringAndReleasing)
            }) else {
                refuse(connection)
                continue
            }
            pthread_detach(handle)
        }
    }

    /// Tells a connection there is no room for it now, and closes it.
    private func refuse(_ connection: Int32) {
        _ = parley_set_timeouts(connection, 1)
        _ = Self.writeLine(busy, to: connection)
        closeDescriptor(connection)
        serving.subtract(1, ordering: .acquiringAndReleasing)
    }

    private func serve(_ connection: Int32) {
        var uid: UInt32 = 0
        // Only the server's own account and root: the file mode says the same, but a socket
        // passed on or a directory opened up must not widen who may administer the server.
        guard parley_peer_uid(connection, &uid) == 0, uid == geteuid() || uid == 0 else { return }
        guard parley_set_timeouts(connection, timeoutSeconds) == 0 else { return }
        let peer = Peer(uid: uid)
        var framer = LineFramer(maxLineBytes: maxLineBytes)
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let budget = framer.readBudget(chunk: chunk.count)
            let count = chunk.withUnsafeMutableBytes { read(connection, $0.baseAddress, budget) }
            if count < 0 && parley_errno() == EINTR { continue }
            // End of input, the silence timeout (EAGAIN) or an error: the conversation is over.
            guard count > 0 else { return }
            for piece in framer.feed(chunk[..<count]) {
                switch piece {
                case .line(let line):
                    guard Self.writeLine(Self.answer(line, peer, handler), to: connection) else { return }
                case .tooLong:
                    _ = Self.writeLine(tooLong, to: connection)
                    return
                }
            }
        }
    }

    /// Runs the async handler from this plain thread and waits for its answer.
    private static func answer(_ line: String, _ peer: Peer, _ handler: @escaping Handler) -> String {
        let result = PThreadMutex("")
        let done = Semaphore()
        Task {
            let text = await handler(line, peer)
            result.withLock { $0 = text }
            done.signal()
        }
        done.wait()
        return result.withLock { $0 }
    }

    static func writeLine(_ text: String, to connection: Int32) -> Bool {
        var bytes = Array(text.utf8)
        bytes.append(UInt8(ascii: "\n"))
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { raw -> Int in
                guard let base = raw.baseAddress else { return -1 }
                return parley_send_nosignal(connection, base + written, UInt(raw.count - written))
            }
            if count < 0 && parley_errno() == EINTR { continue }
            guard count > 0 else { return false }
            written += count
        }
        return true
    }
}

/// A thread's name and work, handed to it through `pthread_create`'s pointer.
private final class LocalSocketThreadStart: Sendable {
    let name: String
    let body: @Sendable () -> Void
    init(name: String, body: @escaping @Sendable () -> Void) {
        self.name = name
        self.body = body
    }
}

/// Why a local socket could not be opened or used.
public enum LocalSocketError: Error, CustomStringConvertible, Equatable {
    /// Another process answers on the path (another server on the same data directory).
    case inUse(String)
    /// Something other than a socket is at the path; it is never removed.
    case notASocket(String)
    /// A system call failed.
    case system(SystemError)
    /// The peer closed the connection or sent no answer in time.
    case noAnswer(String)

    public var description: String {
        switch self {
        case .inUse(let path): return "a server is already listening on \(path)"
        case .notASocket(let path): return "\(path) exists and is not a socket; move it away or choose another --admin-socket"
        case .system(let error): return error.description
        case .noAnswer(let path): return "no answer from \(path)"
        }
    }
}
