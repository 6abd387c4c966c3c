#if canImport(ParleyNet)
import ParleyNet
#if canImport(Glibc)
import Glibc
#endif

/// Turns a host name into the numeric address ParleyNet's `SocketAddress` needs.
enum HostResolver {
    /// The first address of `host` (numeric hosts and `localhost` are taken as they are).
    static func resolve(host: String, port: Int) async throws(ParleyError) -> SocketAddress {
        if let numeric = try? SocketAddress(host: host, port: port) { return numeric }
        // getaddrinfo blocks (DNS); keep it off the caller's actor.
        let resolved: Result<String, ParleyError> = await Task.detached { lookUp(host) }.value
        do {
            return try SocketAddress(host: try resolved.get(), port: port)
        } catch let error as ParleyError {
            throw error
        } catch {
            throw ParleyError.transport("cannot use the address of \(host): \(error)")
        }
    }

    private static func lookUp(_ host: String) -> Result<String, ParleyError> {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_family = AF_UNSPEC
        var list: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(host, nil, &hints, &list)
        guard rc == 0, let first = list else {
            return .failure(.transport("cannot resolve \(host): \(String(cString: gai_strerror(rc)))"))
        }
        defer { freeaddrinfo(list) }
        var buffer = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        let named = getnameinfo(first.pointee.ai_addr, first.pointee.ai_addrlen, &buffer, socklen_t(buffer.count), nil, 0, NI_NUMERICHOST)
        guard named == 0 else { return .failure(.transport("cannot resolve \(host)")) }
        return .success(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }
}
#endif
