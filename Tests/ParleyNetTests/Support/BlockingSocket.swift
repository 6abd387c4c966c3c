import CParleySystem
import Glibc
@testable import ParleyNet

/// A plain blocking client socket for talking to servers under test, with a receive timeout
/// so that a broken server fails a test instead of hanging it.
final class BlockingSocket {
    let fd: Int32

    init(port: Int, host: String = "127.0.0.1", source: String? = nil, timeoutSeconds: Int = 10) throws {
        let address = try SocketAddress(host: host, port: port)
        fd = socket(address.addressFamily, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw SystemError(call: "socket", errno: parley_errno()) }
        if let source {
            let local = try SocketAddress(host: source, port: 0)
            guard local.withSockAddr({ parley_bind(fd, $0, $1) }) == 0 else {
                let code = parley_errno()
                Glibc.close(fd)
                throw SystemError(call: "bind", errno: code)
            }
        }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let rc = address.withSockAddr { parley_connect(fd, $0, $1) }
        guard rc == 0 else {
            let code = parley_errno()
            Glibc.close(fd)
            throw SystemError(call: "connect", errno: code)
        }
    }

    deinit { Glibc.close(fd) }

    func send(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw SystemError(call: "send", errno: parley_errno()) }
            sent += n
        }
    }

    func send(_ text: String) throws { try send(Array(text.utf8)) }

    /// Reads whatever is available (blocking until something is); empty at end of stream.
    func receive(max: Int = 65536) throws -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: max)
        let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, max, 0) }
        guard n >= 0 else { throw SystemError(call: "recv", errno: parley_errno()) }
        return Array(buffer[0..<n])
    }

    /// Reads exactly `count` bytes.
    func receive(exactly count: Int) throws -> [UInt8] {
        var result: [UInt8] = []
        while result.count < count {
            let chunk = try receive(max: count - result.count)
            guard !chunk.isEmpty else { throw SystemError(call: "recv(eof)", errno: 0) }
            result += chunk
        }
        return result
    }

    /// Reads until the peer closes; returns everything.
    func receiveUntilClose() throws -> [UInt8] {
        var result: [UInt8] = []
        while true {
            let chunk = try receive()
            if chunk.isEmpty { return result }
            result += chunk
        }
    }

    /// Reads until `marker` appears; returns everything read so far.
    func receive(until marker: String) throws -> String {
        var result: [UInt8] = []
        let needle = Array(marker.utf8)
        while !result.ends(with: needle) && !String(decoding: result, as: UTF8.self).contains(marker) {
            let chunk = try receive()
            guard !chunk.isEmpty else { break }
            result += chunk
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// Shrinks the receive buffer so a peer's writes back up quickly (slow-reader tests).
    func setReceiveBuffer(_ bytes: Int) {
        _ = parley_setsockopt_int(fd, SOL_SOCKET, SO_RCVBUF, Int32(bytes))
    }
}

extension Array where Element == UInt8 {
    func ends(with suffix: [UInt8]) -> Bool {
        count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
    }
}

extension BlockingSocket {
    /// Whether bytes (or the end of the stream) arrive within `milliseconds`.
    func isReadable(within milliseconds: Int32) -> Bool {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, milliseconds) > 0
    }
}
