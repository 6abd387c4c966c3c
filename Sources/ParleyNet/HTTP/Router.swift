/// Finds the handler for a request path. Immutable once built (see `RouterBuilder`), and
/// `Sendable` when its handlers are, so every event loop can share one.
///
/// Precedence: at each segment a literal beats a parameter, which beats a catch-all; if
/// the more specific branch leads nowhere, the next one is tried
/// (`/users/me/posts` can reach `/users/:id/posts` even though `/users/me` exists).
/// Segments are matched exactly: `/a/` is not `/a`, and `//` holds an empty segment.
public struct Router<Handler> {
    private let root: RouteNode<Handler>

    init(root: RouteNode<Handler>) {
        self.root = root
    }

    /// Looks up `path` (a request path without its query, still percent-encoded, e.g.
    /// `HTTPRequestHead.path`). Segments are percent-decoded before they are compared, so
    /// `%2F` inside a segment never acts as a separator; a malformed escape is `.notFound`.
    public func match(method: HTTPMethod, path: some StringProtocol) -> RouteMatch<Handler> {
        guard path.hasPrefix("/") else { return .notFound }
        let raw = RouteSegment.split(path).map { Substring($0) }
        var decoded: [String] = []
        decoded.reserveCapacity(raw.count)
        for segment in raw {
            guard let text = PercentDecoding.decodePathSegment(segment) else { return .notFound }
            decoded.append(text)
        }

        var result: RouteMatch<Handler>?
        var allowed = Set<HTTPMethod>()
        _ = root.visitMatches(decoded[...], rawRest: raw[...], values: []) { table, values, rest in
            if let endpoint = table[method] ?? (method == .head ? table[.get] : nil) {
                var parameters: [String: String] = [:]
                for (name, value) in zip(endpoint.parameterNames, values) {
                    parameters[name] = value
                }
                if let rest { parameters["*"] = rest }
                result = .found(endpoint.handler, parameters: parameters)
                return true
            }
            allowed.formUnion(table.keys)
            if table[.get] != nil { allowed.insert(.head) }
            return false
        }
        if let result { return result }
        if allowed.isEmpty { return .notFound }
        return .methodNotAllowed(allowed: allowed.sorted { $0.rawValue < $1.rawValue })
    }
}

extension Router: Sendable where Handler: Sendable {}
