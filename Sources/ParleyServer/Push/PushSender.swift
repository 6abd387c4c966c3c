import Foundation
import ParleyNet

/// Sends one push request (a Web Push message, a gateway's notify) over ParleyNet's HTTP
/// client: HTTPS, checked against the system's CAs; plain HTTP only to loopback addresses
/// (test push services). The name is resolved on the blocking pool, the exchange runs on an
/// event loop like any connection, and the caller waits without holding a thread.
struct PushSender: Sendable {
    /// What came of one request.
    enum Outcome: Sendable, Equatable {
        case answered(status: Int, body: [UInt8])
        /// No answer: unreachable, refused, timed out, TLS failed.
        case failed(String)
    }

    let group: EventLoopGroup
    let pool: BlockingPool
    let tls: TLSContext?
    let timeout: Duration

    /// Whether `url` is one the sender will post to: https, or http to a loopback host.
    static func isAcceptable(_ url: URL) -> Bool {
        guard let host = url.host, !host.isEmpty else { return false }
        if url.scheme == "https" { return true }
        guard url.scheme == "http" else { return false }
        return host == "localhost" || ((try? SocketAddress(host: host, port: 0))?.isLoopback ?? false)
    }

    func post(to url: URL, headers: HTTPHeaders, body: [UInt8]) async -> Outcome {
        guard Self.isAcceptable(url), let host = url.host else { return .failed("not an https URL (or http to loopback)") }
        let secure = url.scheme == "https"
        let port = url.port ?? (secure ? 443 : 80)
        let addresses: [SocketAddress]
        do {
            addresses = try await pool.run { try SocketAddress.resolve(host: host, port: port) }
        } catch {
            return .failed("cannot resolve \(host): \(error)")
        }
        guard let address = addresses.first else { return .failed("no address for \(host)") }
        // A name that resolves to loopback over plain HTTP is still only for tests.
        if !secure && !address.isLoopback { return .failed("plain HTTP only to loopback") }
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
