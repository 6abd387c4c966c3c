import Foundation
import Glibc
import ParleyNet
import ParleySync

/// A blocking HTTP/1.1 POST of a JSON body over one loopback connection (`Connection: close`),
/// for setting up users before a load; never used while measuring.
enum HTTPPost {
    /// The status and body of a response.
    struct Reply {
        var status: Int
        var body: Data
    }

    /// `token`, when given, is sent as `Authorization: Bearer` (a signed-in user's request).
    static func send(host: String, port: Int, path: String, json: Data, tls: TLSContext? = nil, token: String? = nil,
                     timeoutSeconds: Int = 30) throws(BenchError) -> Reply {
        if let tls {
            return try sendOverTLS(host: host, port: port, path: path, json: json, tls: tls, token: token, timeoutSeconds: timeoutSeconds)
        }
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
        let authorization = token.map { "Authorization: Bearer \($0)\r\n" } ?? ""
        var request = Data("POST \(path) HTTP/1.1\r\nHost: \(host):\(port)\r\nContent-Type: application/json\r\nContent-Length: \(json.count)\r\n\(authorization)Connection: close\r\n\r\n".utf8)
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

    /// The loop HTTPS registrations run on (made on first use; most runs are plaintext).
    private static let tlsLoops = PThreadMutex<EventLoopGroup?>(nil)

    /// The same request over TLS, through ParleyNet's one-shot client, waited for here.
    private static func sendOverTLS(host: String, port: Int, path: String, json: Data, tls: TLSContext, token: String?,
                                    timeoutSeconds: Int) throws(BenchError) -> Reply {
        let made: Result<EventLoop, BenchError> = tlsLoops.withLock { group in
            if let group { return .success(group.next()) }
            do {
                let created = try EventLoopGroup(loopCount: 1, name: "bench-https")
                group = created
                return .success(created.next())
            } catch {
                return .failure(.system("cannot start the HTTPS loop: \(error)"))
            }
        }
        let loop = try made.get()
        let address: SocketAddress
        do { address = try SocketAddress(host: host, port: port) } catch { throw .usage("'\(host)' is not a numeric address") }
        var headers: HTTPHeaders = ["Host": "\(host):\(port)", "Content-Type": "application/json"]
        if let token { headers.add(name: "Authorization", value: "Bearer \(token)") }
        let head = HTTPRequestHead(method: .post, uri: path, headers: headers)
        let outcome = PThreadMutex<Result<HTTPClientExchange.Response, HTTPClientExchangeError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        loop.execute {
            HTTPClientExchange.send(head, body: Array(json), to: address, on: loop, tls: tls,
                                    timeout: .seconds(timeoutSeconds)) { result in
                outcome.withLock { $0 = result }
                done.signal()
            }
        }
        guard done.wait(timeout: .now() + .seconds(timeoutSeconds + 5)) == .success, let result = outcome.withLock({ $0 }) else {
            throw .failed("no HTTPS response from \(host):\(port)\(path) in time")
        }
        switch result {
        case .success(let response): return Reply(status: response.status, body: Data(response.body))
        case .failure(let error): throw .failed("\(host):\(port)\(path): \(error)")
        }
    }
}
