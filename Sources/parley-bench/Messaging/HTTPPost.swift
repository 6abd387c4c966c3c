import Foundation
import Glibc

/// A blocking HTTP/1.1 POST of a JSON body over one loopback connection (`Connection: close`),
/// for setting up users before a load; never used while measuring.
enum HTTPPost {
    /// The status and body of a response.
    struct Reply {
        var status: Int
        var body: Data
    }

    static func send(host: String, port: Int, path: String, json: Data, timeoutSeconds: Int = 30) throws(BenchError) -> Reply {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw .system("socket failed: errno \(errno)") }
        defer { close(fd) }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else { throw .usage("'\(host)' is not an IPv4 address") }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw .system("connect to \(host):\(port) failed: errno \(errno)") }
        var request = Data("POST \(path) HTTP/1.1\r\nHost: \(host):\(port)\r\nContent-Type: application/json\r\nContent-Length: \(json.count)\r\nConnection: close\r\n\r\n".utf8)
        request.append(json)
        var written = 0
        while written < request.count {
            let count = request.withUnsafeBytes { write(fd, $0.baseAddress! + written, $0.count - written) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw .system("write to \(host):\(port) failed: errno \(errno)") }
            written += count
        }
        var response = Data()
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw .system("read from \(host):\(port) failed: errno \(errno)") }
            if count == 0 { break }
            response.append(contentsOf: chunk[0..<count])
        }
        guard let headEnd = response.range(of: Data("\r\n\r\n".utf8)),
              let statusLine = String(data: response[..<headEnd.lowerBound], encoding: .utf8)?.split(separator: "\r\n").first else {
            throw .failed("no HTTP response from \(host):\(port)\(path)")
        }
        let words = statusLine.split(separator: " ")
        guard words.count >= 2, let status = Int(words[1]) else { throw .failed("bad status line '\(statusLine)'") }
        // The server answers these requests with Content-Length; the body is what follows the head.
        return Reply(status: status, body: Data(response[headEnd.upperBound...]))
    }
}
