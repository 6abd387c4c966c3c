import CParleySystem

/// An IPv4 or IPv6 network in CIDR notation (`10.0.0.0/8`, `::1/128`, or one address).
public struct IPAddressRange: Sendable, Equatable {
    /// The network's address bytes (4 or 16) and prefix length.
    private let bytes: [UInt8]
    private let prefix: Int

    /// Parses `a.b.c.d[/n]` or an IPv6 address with an optional `/n`; nil for anything else.
    public init?(_ text: some StringProtocol) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let address = Self.bytes(of: String(parts[0])) else { return nil }
        let bits = address.count * 8
        if parts.count == 2 {
            guard let length = Int(parts[1]), (0...bits).contains(length) else { return nil }
            prefix = length
        } else {
            prefix = bits
        }
        bytes = address
    }

    /// Whether the numeric address `host` lies in the range (an IPv4 address mapped into IPv6,
    /// `::ffff:a.b.c.d`, counts as its IPv4 self).
    public func contains(_ host: String) -> Bool {
        guard var address = Self.bytes(of: host) else { return false }
        if address.count == 16 && bytes.count == 4 && address.prefix(12) == [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff] {
            address = Array(address.suffix(4))
        }
        guard address.count == bytes.count else { return false }
        var remaining = prefix
        for index in 0..<bytes.count where remaining > 0 {
            let mask: UInt8 = remaining >= 8 ? 0xff : ~(0xff >> UInt8(remaining))
            guard address[index] & mask == bytes[index] & mask else { return false }
            remaining -= 8
        }
        return true
    }

    /// The 4 or 16 bytes of a numeric address (IPv6 may be in brackets).
    static func bytes(of host: String) -> [UInt8]? {
        var name = host
        if name.hasPrefix("[") && name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        var v4 = in_addr()
        if inet_pton(AF_INET, name, &v4) == 1 {
            return withUnsafeBytes(of: &v4) { Array($0) }
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, name, &v6) == 1 {
            return withUnsafeBytes(of: &v6) { Array($0) }
        }
        return nil
    }
}
