import Foundation
import Glibc
import Synchronization

/// A Web Push service on loopback for `direct --away-fraction`: accepts the server's push
/// POSTs one connection at a time, answers each `201 Created` and counts it. The pushes are
/// not decrypted: what is measured is what sending them costs the server (the e2e push tests
/// check their contents).
final class PushSink: Sendable {
    /// The port it listens on (127.0.0.1).
    let port: Int
    private let listener: Int32
    private let count = Atomic<Int>(0)
    private let stopped = Atomic<Bool>(false)

    /// Pushes answered so far.
    var received: Int { count.load(ordering: .relaxed) }

    init() throws(BenchError) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw .system("push sink: socket failed: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = in_addr_t(UInt32(0x7f00_0001).bigEndian)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                bind(fd, raw, length) == 0 && listen(fd, 1024) == 0 && getsockname(fd, raw, &length) == 0
            }
        }
        guard bound else {
            close(fd)
            throw .system("push sink: cannot listen on 127.0.0.1: errno \(errno)")
        }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    /// Stops accepting (the thread leaves its `accept`).
    func stop() {
        guard !stopped.exchange(true, ordering: .relaxed) else { return }
        shutdown(listener, Int32(SHUT_RDWR))
    }

    deinit {
        stop()
        close(listener)
    }

    private func acceptLoop() {
        while !stopped.load(ordering: .relaxed) {
            let connection = accept(listener, nil, nil)
            if connection < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                return
            }
            if answer(connection) { count.add(1, ordering: .relaxed) }
            close(connection)
        }
    }

    /// Reads one request (head and a `Content-Length` body) and answers 201; false if the
    /// request did not arrive whole within the socket's timeout.
    private func answer(_ connection: Int32) -> Bool {
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        _ = setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 8192)
        var needed: Int?
        while needed.map({ received.count < $0 }) ?? true {
            let read = chunk.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            if read < 0 && errno == EINTR { continue }
            guard read > 0 else { return false }
            received.append(contentsOf: chunk[0..<read])
            if needed == nil, let end = Self.headEnd(received) {
                needed = end + Self.contentLength(received[0..<end])
            }
            guard received.count <= 1 << 20 else { return false }
        }
        let reply = Array("HTTP/1.1 201 Created\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8)
        return reply.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == reply.count
    }

    private static func headEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4)
        where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index + 4
        }
        return nil
    }

    private static func contentLength(_ head: ArraySlice<UInt8>) -> Int {
        for line in String(decoding: head, as: UTF8.self).split(separator: "\r\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "content-length" {
                return Int(parts[1].trimmingCharacters(in: .whitespaces)) ?? 0
            }
        }
        return 0
    }
}
