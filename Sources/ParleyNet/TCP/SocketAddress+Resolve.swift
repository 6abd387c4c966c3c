import CParleySystem

extension SocketAddress {
    /// The addresses of `host` (a name or a numeric address) for TCP on `port`, IPv4 first.
    /// Blocks while the system resolver asks DNS: never call it on an event loop.
    public static func resolve(host: String, port: Int) throws(SocketAddressError) -> [SocketAddress] {
        if let numeric = try? SocketAddress(host: host, port: port) { return [numeric] }
        guard (0...65535).contains(port) else { throw SocketAddressError.badPort(port) }
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_family = AF_UNSPEC
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0, let first = list else { throw SocketAddressError.notNumeric(host) }
        defer { freeaddrinfo(first) }
        var found: [SocketAddress] = []
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let entry = cursor {
            var text = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            if let address = entry.pointee.ai_addr,
               getnameinfo(address, entry.pointee.ai_addrlen, &text, socklen_t(text.count), nil, 0, NI_NUMERICHOST) == 0,
               let parsed = try? SocketAddress(host: String(cString: text), port: port), !found.contains(parsed) {
                found.append(parsed)
            }
            cursor = entry.pointee.ai_next
        }
        guard !found.isEmpty else { throw SocketAddressError.notNumeric(host) }
        return found.sorted { $0.family == .ipv4 && $1.family != .ipv4 }
    }

    /// Whether the address is a loopback one (127.0.0.0/8 or ::1).
    public var isLoopback: Bool {
        family == .ipv4 ? host.hasPrefix("127.") : host == "::1"
    }

    /// Whether the address is not on the public internet: loopback, private (RFC 1918,
    /// RFC 4193), shared (RFC 6598), link-local, unspecified, or an IPv4-mapped one of these.
    public var isInternal: Bool {
        if isLoopback { return true }
        switch family {
        case .ipv4:
            let octets = host.split(separator: ".").compactMap { Int($0) }
            guard octets.count == 4 else { return true }
            switch (octets[0], octets[1]) {
            case (0, _), (10, _), (127, _), (169, 254), (192, 168): return true
            case (172, 16...31), (100, 64...127): return true
            default: return false
            }
        case .ipv6:
            let lower = host.lowercased()
            if lower.hasPrefix("::ffff:"), let mapped = try? SocketAddress(host: String(lower.dropFirst(7)), port: port) {
                return mapped.isInternal
            }
            return lower == "::" || lower.hasPrefix("fc") || lower.hasPrefix("fd") || lower.hasPrefix("fe8") || lower.hasPrefix("fe9")
                || lower.hasPrefix("fea") || lower.hasPrefix("feb")
        }
    }
}
