import CParleySystem

/// The descriptor of one non-blocking TCP socket and the system calls a connection makes on
/// it, each through the one system-call wrapper (`EINTR` retried, `EAGAIN` as `.wouldBlock`).
///
/// A value type owned by its `TCPConnection`, which closes it; a closed socket has `fd` -1.
struct TCPSocket {
    private(set) var fd: Int32

    init(fd: Int32) {
        self.fd = fd
    }

    /// A socket connecting to `address` (optionally from `localAddress`); the connect goes on
    /// in the background and finishes when the socket turns writable.
    static func connecting(to address: SocketAddress, from localAddress: SocketAddress?) throws(SystemError) -> TCPSocket {
        let fd = try blockingSystemCall("socket") {
            socket(address.addressFamily, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        }
        do throws(SystemError) {
            _ = parley_setsockopt_int(fd, Int32(IPPROTO_TCP), TCP_NODELAY, 1)
            if let localAddress {
                try blockingSystemCall("bind") { localAddress.withSockAddr { parley_bind(fd, $0, $1) } }
            }
            let rc = address.withSockAddr { parley_connect(fd, $0, $1) }
            if rc != 0 && parley_errno() != EINPROGRESS {
                throw SystemError(call: "connect", errno: parley_errno())
            }
        } catch {
            closeDescriptor(fd)
            throw error
        }
        return TCPSocket(fd: fd)
    }

    /// True until `close()`.
    var isOpen: Bool { fd >= 0 }

    /// Reads what is there into `buffer`: the count (0 at the peer's end of stream).
    func receive(into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> IOResult<Int> {
        try systemCall("read") { read(fd, buffer.baseAddress, buffer.count) }
    }

    /// Writes the first `count` of `iovecs` in one call: the bytes written.
    func send(_ iovecs: UnsafeMutablePointer<iovec>, count: Int) throws(SystemError) -> IOResult<Int> {
        try systemCall("writev") { writev(fd, iovecs, Int32(count)) }
    }

    /// The error pending on the socket (`SO_ERROR`), 0 when there is none; reading clears it.
    func pendingError() -> Int32 {
        var code: Int32 = 0
        _ = parley_getsockopt_int(fd, SOL_SOCKET, SO_ERROR, &code)
        return code
    }

    /// Why a background connect failed, once the socket reported its outcome; nil when it
    /// connected. An error event without a code counts as a refusal.
    func connectError(reported: Bool) -> SystemError? {
        let code = pendingError()
        guard code != 0 || reported else { return nil }
        return SystemError(call: "connect", errno: code == 0 ? ECONNREFUSED : code)
    }

    /// Sends our end of stream; reading goes on.
    func shutdownOutput() {
        _ = shutdown(fd, Int32(SHUT_WR))
    }

    /// Closes the descriptor; harmless when it is already closed.
    mutating func close() {
        guard fd >= 0 else { return }
        closeDescriptor(fd)
        fd = -1
    }

    /// Whether an error from a read or write means the peer went away rather than a fault.
    static func isPeerGone(_ errno: Int32) -> Bool {
        errno == ECONNRESET || errno == EPIPE
    }
}
