import CParleySystem

/// An IPv4 or IPv6 address and port.
public struct SocketAddress: Sendable, Equatable, CustomStringConvertible {
    /// Which family the address belongs to.
    public enum Family: Sendable, Equatable { case ipv4, ipv6 }

    /// The address family.
    public let family: Family
    /// The numeric host, e.g. `127.0.0.1` or `::1`.
    public let host: String
    /// The port.
    public let port: Int

    /// Parses a numeric IPv4 or IPv6 host (`localhost` means `127.0.0.1`).
    public init(host: String, port: Int) throws(SocketAddressError) {
        guard (0...65535).contains(port) else { throw SocketAddressError.badPort(port) }
        let name = host == "localhost" ? "127.0.0.1" : host
        var v4 = in_addr()
        var v6 = in6_addr()
        if inet_pton(AF_INET, name, &v4) == 1 {
            family = .ipv4
        } else if inet_pton(AF_INET6, name.trimmingBrackets, &v6) == 1 {
            family = .ipv6
        } else {
            throw SocketAddressError.notNumeric(host)
        }
        self.host = family == .ipv6 ? String(name.trimmingBrackets) : name
        self.port = port
    }

    /// Whether `host` is a numeric IPv4 or IPv6 address (not a name); `localhost` is a name.
    static func isNumericHost(_ host: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host.trimmingBrackets, &v6) == 1
    }

    public var description: String { family == .ipv6 ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// Calls `body` with the address as a `sockaddr` and its length.
    func withSockAddr<R>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
        switch family {
        case .ipv4:
            var addr = sockaddr_in()
            addr.sin_family = sa_family_t(AF_INET)
            addr.sin_port = in_port_t(UInt16(port).bigEndian)
            _ = inet_pton(AF_INET, host, &addr.sin_addr)
            return withUnsafePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        case .ipv6:
            var addr = sockaddr_in6()
            addr.sin6_family = sa_family_t(AF_INET6)
            addr.sin6_port = in_port_t(UInt16(port).bigEndian)
            _ = inet_pton(AF_INET6, host, &addr.sin6_addr)
            return withUnsafePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
        }
    }

    var addressFamily: Int32 { family == .ipv4 ? AF_INET : AF_INET6 }

    /// Reads a `sockaddr_storage` filled by the kernel.
    init?(storage: sockaddr_storage) {
        var storage = storage
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        switch Int32(storage.ss_family) {
        case AF_INET:
            let addr = withUnsafePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee } }
            var raw = addr.sin_addr
            guard inet_ntop(AF_INET, &raw, &buffer, socklen_t(buffer.count)) != nil else { return nil }
            family = .ipv4
            port = Int(UInt16(bigEndian: addr.sin_port))
        case AF_INET6:
            let addr = withUnsafePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee } }
            var raw = addr.sin6_addr
            guard inet_ntop(AF_INET6, &raw, &buffer, socklen_t(buffer.count)) != nil else { return nil }
            family = .ipv6
            port = Int(UInt16(bigEndian: addr.sin6_port))
        default:
            return nil
        }
        host = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The local address a socket is bound to.
    static func local(of fd: Int32) -> SocketAddress? {
        var storage = sockaddr_storage()
        let rc = parley_getsockname(fd, &storage)
        return rc == 0 ? SocketAddress(storage: storage) : nil
    }

    /// The address of a socket's peer.
    static func peer(of fd: Int32) -> SocketAddress? {
        var storage = sockaddr_storage()
        let rc = parley_getpeername(fd, &storage)
        return rc == 0 ? SocketAddress(storage: storage) : nil
    }
}

/// Why a host and port could not be made into a `SocketAddress`.
public enum SocketAddressError: Error, Equatable, CustomStringConvertible {
    /// The port is outside 0…65535.
    case badPort(Int)
    /// The host is not a numeric IPv4 or IPv6 address (names are not resolved here).
    case notNumeric(String)

    public var description: String {
        switch self {
        case .badPort(let port): return "port \(port) is outside 0…65535"
        case .notNumeric(let host): return "host '\(host)' is not a numeric IPv4 or IPv6 address"
        }
    }
}

private extension String {
    var trimmingBrackets: String {
        hasPrefix("[") && hasSuffix("]") ? String(dropFirst().dropLast()) : self
    }
}
