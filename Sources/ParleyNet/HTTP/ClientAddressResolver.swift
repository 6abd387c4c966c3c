/// Who a request is from: the peer's address, or, when the peer is one of the trusted
/// reverse proxies, the address the proxy says it forwarded for (`X-Forwarded-For`, or
/// RFC 7239 `Forwarded: for=`). Every per-address limit uses this, and nothing else reads
/// those headers: from an untrusted peer they are anyone's to forge.
public struct ClientAddressResolver: Sendable, Equatable {
    /// The proxies whose forwarding headers are believed.
    public var trustedProxies: [IPAddressRange]

    public init(trustedProxies: [IPAddressRange] = []) {
        self.trustedProxies = trustedProxies
    }

    /// Parses `--trusted-proxies`: CIDR ranges or addresses, comma-separated; nil when one
    /// is not an address.
    public init?(list: String) {
        var ranges: [IPAddressRange] = []
        for item in list.split(separator: ",") {
            let trimmed = String(item.trimmingSpaces())
            guard !trimmed.isEmpty else { continue }
            guard let range = IPAddressRange(trimmed) else { return nil }
            ranges.append(range)
        }
        trustedProxies = ranges
    }

    /// The client's address for a request from `peer` with `headers`. Proxies append to
    /// `X-Forwarded-For`, so it is read from the right, skipping trusted proxies, and the
    /// first address that is not one is the client's.
    public func clientAddress(peer: String, headers: HTTPHeaders) -> String {
        guard isTrusted(peer) else { return peer }
        var chain: [String] = []
        for value in headers[all: "Forwarded"] {
            for element in value.split(separator: ",") {
                for pair in element.split(separator: ";") {
                    let parts = pair.split(separator: "=", maxSplits: 1)
                    guard parts.count == 2, String(parts[0].trimmingSpaces()).lowercasedASCII() == "for" else { continue }
                    chain.append(Self.forwardedNode(String(parts[1].trimmingSpaces())))
                }
            }
        }
        if chain.isEmpty {
            for value in headers[all: "X-Forwarded-For"] {
                chain += value.split(separator: ",").map { String($0.trimmingSpaces()) }
            }
        }
        for hop in chain.reversed() where !hop.isEmpty {
            guard IPAddressRange.bytes(of: hop) != nil else { return peer }
            if !isTrusted(hop) { return hop }
        }
        return chain.first { IPAddressRange.bytes(of: $0) != nil } ?? peer
    }

    private func isTrusted(_ host: String) -> Bool {
        trustedProxies.contains { $0.contains(host) }
    }

    /// A `for=` node without quotes, brackets or port (`"[2001:db8::1]:4711"` → `2001:db8::1`).
    static func forwardedNode(_ raw: String) -> String {
        var node = Substring(raw)
        if node.hasPrefix("\"") && node.hasSuffix("\"") && node.count >= 2 { node = node.dropFirst().dropLast() }
        if node.hasPrefix("["), let close = node.firstIndex(of: "]") {
            return String(node[node.index(after: node.startIndex)..<close])
        }
        if node.filter({ $0 == ":" }).count == 1, let colon = node.firstIndex(of: ":") { node = node[..<colon] }
        return String(node)
    }
}
