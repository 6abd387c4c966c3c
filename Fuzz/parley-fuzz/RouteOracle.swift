import ParleyNet

/// The server's route table, and route matching done one pattern at a time: the reference
/// `Router.match` is checked against.
enum RouteOracle {
    /// The patterns `parley serve` registers, plus a few that exercise what the server's
    /// table does not yet use: a parameter beside a literal with more after it, and
    /// catch-alls at two depths.
    static let routes: [(method: HTTPMethod, pattern: String)] = [
        (.get, "/healthz"), (.get, "/metrics"),
        (.post, "/v1/auth/register"), (.post, "/v1/auth/login"), (.post, "/v1/auth/sms/request"),
        (.post, "/v1/auth/sms/verify"), (.post, "/v1/auth/logout"), (.get, "/v1/auth/sessions"),
        (.delete, "/v1/auth/sessions/:id"), (.get, "/v1/me"), (.patch, "/v1/me"),
        (.get, "/v1/users/by-name/:username"), (.get, "/v1/users/:id"), (.post, "/v1/media"), (.get, "/v1/media/:id"),
        (.get, "/v1/users/:id/posts"), (.post, "/v1/:section/*"), (.get, "/static/*"), (.get, "/"),
    ]

    static let router: Router<Int> = {
        var builder = RouterBuilder<Int>()
        for (index, route) in routes.enumerated() {
            builder.add(route.method, route.pattern, index)
        }
        return builder.build()
    }()

    static func check(method: HTTPMethod, path: Substring) throws(InvariantFailure) {
        let answer = router.match(method: method, path: path)
        let bound = routes.indices.compactMap { index in bind(routes[index].pattern, path).map { (index, $0) } }
        let candidates = bound.filter { index, _ in
            let route = routes[index]
            if route.method == method { return true }
            // HEAD falls back to GET unless the same pattern has its own HEAD route.
            return method == .head && route.method == .get
                && !routes.contains { $0.method == .head && $0.pattern == route.pattern }
        }
        // The most specific candidate wins: at the first segment where two differ, a
        // literal before a parameter before a catch-all; a pattern that ends first wins.
        if let best = candidates.min(by: { specificity(routes[$0.0].pattern).lexicographicallyPrecedes(specificity(routes[$1.0].pattern)) }) {
            guard case .found(let index, let parameters) = answer else {
                throw InvariantFailure("\(method) \(path.debugDescription): \(answer), expected \(routes[best.0])")
            }
            try InvariantFailure.expect(index == best.0 && parameters == best.1, """
                \(method) \(path.debugDescription) found \(routes[index]) with \(parameters), \
                expected \(routes[best.0]) with \(best.1)
                """)
        } else if !bound.isEmpty {
            var allowed = Set(bound.map { routes[$0.0].method })
            if allowed.contains(.get) { allowed.insert(.head) }
            guard case .methodNotAllowed(let methods) = answer else {
                throw InvariantFailure("\(method) \(path.debugDescription): \(answer), expected 405 allowing \(allowed)")
            }
            try InvariantFailure.expect(Set(methods) == allowed && methods.count == allowed.count,
                                        "\(method) \(path.debugDescription): allowed \(methods), expected \(allowed)")
        } else {
            guard case .notFound = answer else {
                throw InvariantFailure("\(method) \(path.debugDescription): \(answer), expected not found")
            }
        }
    }

    /// The parameters `pattern` binds on `path`, or nil if it does not match. Segments are
    /// compared decoded; a path with any malformed segment matches nothing.
    static func bind(_ pattern: String, _ path: Substring) -> [String: String]? {
        guard path.hasPrefix("/") else { return nil }
        let raw = segments(path)
        var decoded: [String] = []
        for segment in raw {
            guard let text = PercentDecoding.decodePathSegment(segment) else { return nil }
            decoded.append(text)
        }
        let parts = segments(Substring(pattern))
        var parameters: [String: String] = [:]
        for (position, part) in parts.enumerated() {
            if part == "*" {
                // The rest, zero or more segments, as sent.
                parameters["*"] = raw[position...].joined(separator: "/")
                return parameters
            }
            guard position < decoded.count else { return nil }
            if part.hasPrefix(":") {
                guard !decoded[position].isEmpty else { return nil }
                parameters[String(part.dropFirst())] = decoded[position]
            } else if part != decoded[position] {
                return nil
            }
        }
        return decoded.count == parts.count ? parameters : nil
    }

    /// `/` is no segment, `/a/` is `a` and an empty one.
    static func segments(_ path: Substring) -> [Substring] {
        path == "/" ? [] : path.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
    }

    /// Per segment: 0 for a literal, 1 for a parameter, 2 for the catch-all.
    static func specificity(_ pattern: String) -> [Int] {
        segments(Substring(pattern)).map { $0 == "*" ? 2 : $0.hasPrefix(":") ? 1 : 0 }
    }
}
