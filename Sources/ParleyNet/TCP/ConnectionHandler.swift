/// Why a connection closed.
public enum ConnectionCloseReason: Sendable, Equatable {
    /// The peer closed its side (end of stream) or reset the connection.
    case peerClosed
    /// This side asked to close (`TCPConnection.close`).
    case local
    /// Nothing was read from the peer within the idle timeout.
    case idleTimeout
    /// The peer did not read: the write queue stalled past its bound or grew past its limit.
    case slowPeer
    /// The server is shutting down.
    case shutdown
    /// A system call failed.
    case error(SystemError)
    /// TLS failed: a handshake or certificate verification failed, the peer broke the
    /// protocol, or it spoke plaintext to a TLS port.
    case tls(TLSError)
}

/// Receives what happens on a `TCPConnection`. All calls come on the connection's loop.
///
/// A handler may be replaced while the connection is open (an HTTP handler hands the
/// connection to a WebSocket handler after the upgrade).
public protocol ConnectionHandler: AnyObject {
    /// An outbound connection finished connecting. Not called for accepted connections.
    func connectionDidConnect(_ connection: TCPConnection)

    /// Bytes arrived. `bytes` is only valid during the call (it points into the loop's shared
    /// read buffer): copy what must be kept. The buffer is scratch, so the handler may also
    /// overwrite these bytes in place (a WebSocket server unmasks frames there).
    func connection(_ connection: TCPConnection, didRead bytes: UnsafeRawBufferPointer)

    /// Everything queued so far has been written to the socket.
    func connectionWriteQueueDidDrain(_ connection: TCPConnection)

    /// The server is shutting down: finish politely (e.g. a WebSocket close 1001), then close.
    /// The default closes at once after flushing.
    func connectionShouldShutDown(_ connection: TCPConnection)

    /// The deadline set by `TCPConnection.setHandlerDeadline(after:)` has passed (it is
    /// cleared first: set another from here to keep going). The default does nothing.
    func connectionDeadlinePassed(_ connection: TCPConnection)

    /// The connection is closed; called exactly once. The handler should drop its references.
    func connection(_ connection: TCPConnection, didCloseWith reason: ConnectionCloseReason)
}

extension ConnectionHandler {
    public func connectionDidConnect(_ connection: TCPConnection) {}
    public func connectionWriteQueueDidDrain(_ connection: TCPConnection) {}
    public func connectionShouldShutDown(_ connection: TCPConnection) { connection.close() }
    public func connectionDeadlinePassed(_ connection: TCPConnection) {}
}

/// Limits and timeouts of one connection.
public struct TCPConnectionOptions: Sendable {
    /// Close the connection when nothing was read for this long (nil: never).
    public var idleTimeout: Duration?
    /// Stop reading from the peer while more than this many bytes wait to be written to it.
    public var writeHighWatermark: Int
    /// Resume reading once the queue falls below this.
    public var writeLowWatermark: Int
    /// Close the connection if more than this many bytes wait to be written (a peer that
    /// does not read must not make the server hold unbounded memory).
    public var maxQueuedBytes: Int
    /// Close the connection if the socket accepted no bytes for this long while data waited.
    public var writeStallTimeout: Duration
    /// After a graceful close, how long to wait for the peer to close its side before the
    /// socket is closed anyway.
    public var lingerTimeout: Duration

    public init(idleTimeout: Duration? = .seconds(120),
                writeHighWatermark: Int = 256 * 1024,
                writeLowWatermark: Int = 64 * 1024,
                maxQueuedBytes: Int = 4 * 1024 * 1024,
                writeStallTimeout: Duration = .seconds(30),
                lingerTimeout: Duration = .seconds(2)) {
        self.idleTimeout = idleTimeout
        self.writeHighWatermark = writeHighWatermark
        self.writeLowWatermark = writeLowWatermark
        self.maxQueuedBytes = maxQueuedBytes
        self.writeStallTimeout = writeStallTimeout
        self.lingerTimeout = lingerTimeout
    }
}
