import Foundation
import ParleyNet

/// Sends one push request (a Web Push message, a gateway's notify) over ParleyNet's HTTP
/// client: HTTPS, checked against the system's CAs. Clients choose the URLs, so none may
/// reach an address off the public internet (the server's own machine, its private network),
/// except the operator's own gateway (`trusted`), and plain HTTP to loopback only when
/// `--push-allow-loopback yes` (tests). The name is resolved on the blocking pool, the
/// exchange runs on an event loop like any connection, and the caller waits without holding
/// a thread.
struct PushSender: Sendable {
    /// What came of one request.
    enum Outcome: Sendable, Equatable {
        case answered(status: Int, body: [UInt8])
        /// No answer: unreachable, refused, timed out, TLS failed (worth another try).
        case failed(String)
        /// Not sent, and never will be: the URL or its address is not one pushes may go to.
        case refused(String)
    }

    let group: EventLoopGroup
    let pool: BlockingPool
    let tls: TLSContext?
    let timeout: Duration
    /// Whether loopback push services (plain HTTP) are allowed: for tests only.
    let allowLoopback: Bool

    /// Whether `url` may be registered: https, or http to a loopback host when allowed.
    static func isAcceptable(_ url: URL, allowLoopback: Bool) -> Bool {
        guard let host = url.host, !host.isEmpty else { return false }
        if url.scheme == "https" { return true }
        guard url.scheme == "http", allowLoopback else { return false }
        return host == "localhost" || ((try? SocketAddress(host: host, port: 0))?.isLoopback ?? false)
    }

    /// Posts `body` to `url`; `trusted` for the operator's own gateway, which may be on a
    /// private network.
    func post(to url: URL, headers: HTTPHeaders, body: [UInt8], trusted: Bool = false) async -> Outcome {
        guard Self.isAcceptable(url, allowLoopback: allowLoopback), let host = url.host else {
            return .refused("not an https URL")
        }
        let secure = url.scheme == "https"
        let port = url.port ?? (secure ? 443 : 80)
        let addresses: [SocketAddress]
        do {
            addresses = try await pool.run { try SocketAddress.resolve(host: host, port: port) }
        } catch {
            return .failed("cannot resolve \(host): \(error)")
        }
        guard let address = addresses.first else { return .failed("no address for \(host)") }
        if address.isLoopback {
            guard allowLoopback || trusted else { return .refused("a loopback address") }
        } else if address.isInternal {
            guard trusted else { return .refused("an address off the public internet") }
        }
        if !secure && !address.isLoopback { return .refused("plain HTTP only to loopback") }
        if secure && tls == nil { return .failed("no TLS context for https") }
        var path = url.path.isEmpty ? "/" : url.path
        if let query = url.query { path += "?" + query }
        var head = HTTPRequestHead(method: .post, uri: path, headers: headers)
        head.headers.replaceOrAdd(name: "Host", value: url.port.map { "\(host):\($0)" } ?? host)
        let request = head
        let loop = group.next()
        let timeout = self.timeout
        let tls = secure ? self.tls : nil
        return await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
            loop.execute {
                HTTPClientExchange.send(request, body: body, to: address, on: loop, tls: tls, serverName: secure ? host : nil,
                                        maxBodyBytes: 64 * 1024, timeout: timeout) { result in
                    switch result {
                    case .success(let response): continuation.resume(returning: .answered(status: response.status, body: response.body))
                    case .failure(let error): continuation.resume(returning: .failed("\(error)"))
                    }
                }
            }
        }
    }
}
