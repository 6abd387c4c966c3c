/// Which browser origins may open a WebSocket. Browsers let any page connect to any host
/// and only report the page's origin in `Origin`, so this check is what stops another site
/// from riding a user's cookies into the chat (cross-site WebSocket hijacking).
///
/// A request without `Origin` is allowed under every policy: browsers always send it on
/// WebSocket requests, so its absence means a non-browser client, which could forge any
/// value anyway.
public enum WebSocketOriginPolicy: Sendable, Equatable {
    /// Any origin may connect (for public endpoints that use no ambient credentials).
    case allowAny
    /// Only these origins, each `scheme://host[:port]`. Compared without regard to case,
    /// with a default port (80 for http/ws, 443 for https/wss) equal to no port.
    case allowList([String])
    /// Only pages served from the host the request was sent to: the origin's host and port
    /// must match the `Host` header, and its scheme the one the server is reached by when
    /// that is known (see `allows`).
    case sameOrigin

    /// Whether a request with this `Origin` value (nil when absent) sent to `host` (the
    /// `Host` header) may connect. `scheme` is how pages reach this server (`http` or
    /// `https`), compared under `.sameOrigin`; nil when it cannot be known here (behind a
    /// TLS terminator).
    public func allows(origin: String?, host: String?, scheme: String? = nil) -> Bool {
        guard let origin else { return true }
        switch self {
        case .allowAny:
            return true
        case .allowList(let allowed):
            let candidate = Origin(origin)
            return allowed.contains { entry in
                if let candidate, let listed = Origin(entry) { return candidate == listed }
                // Values that are not scheme://host[:port], such as "null", match only verbatim.
                return entry.lowercasedASCII() == origin.lowercasedASCII()
            }
        case .sameOrigin:
            guard let candidate = Origin(origin), let host, let target = Authority(host) else { return false }
            if let scheme, candidate.scheme != scheme.lowercasedASCII() { return false }
            return candidate.authority.host == target.host
                && candidate.port == (target.port ?? Origin.defaultPort(scheme: candidate.scheme))
        }
    }

    /// A parsed, lowercased `scheme://host[:port]`, with the default port filled in.
    private struct Origin: Equatable {
        var scheme: String
        var authority: Authority
        var port: Int?

        init?(_ text: String) {
            let lowered = text.lowercasedASCII()
            guard let separator = lowered.firstRange(of: "://") else { return nil }
            scheme = String(lowered[..<separator.lowerBound])
            guard !scheme.isEmpty, let authority = Authority(lowered[separator.upperBound...]) else { return nil }
            self.authority = authority
            port = authority.port ?? Self.defaultPort(scheme: scheme)
        }

        static func == (a: Origin, b: Origin) -> Bool {
            a.scheme == b.scheme && a.authority.host == b.authority.host && a.port == b.port
        }

        static func defaultPort(scheme: String) -> Int? {
            switch scheme {
            case "http", "ws": 80
            case "https", "wss": 443
            default: nil
            }
        }
    }

    /// A parsed, lowercased `host[:port]`; IPv6 hosts in brackets.
    private struct Authority: Equatable {
        var host: String
        var port: Int?

        init?(_ text: some StringProtocol) {
            let text = text.lowercasedASCII()
            guard !text.isEmpty, !text.contains(where: { "/?#@ ".contains($0) }) else { return nil }
            var portText: Substring?
            if text.hasPrefix("[") {
                guard let close = text.firstIndex(of: "]") else { return nil }
                host = String(text[...close])
                let rest = text[text.index(after: close)...]
                if !rest.isEmpty {
                    guard rest.first == ":" else { return nil }
                    portText = rest.dropFirst()
                }
            } else {
                let parts = text.split(separator: ":", omittingEmptySubsequences: false)
                guard parts.count <= 2, !parts[0].isEmpty else { return nil }
                host = String(parts[0])
                if parts.count == 2 { portText = parts[1] }
            }
            if let portText {
                guard (1...5).contains(portText.count), portText.allSatisfy(\.isASCII),
                      let port = Int(portText), port <= 65535 else { return nil }
                self.port = port
            } else {
                port = nil
            }
        }
    }
}
