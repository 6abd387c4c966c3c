/// One segment of a route pattern.
enum RouteSegment: Hashable, Sendable {
    /// Matches exactly this (decoded) text.
    case literal(String)
    /// `:name`: matches any one non-empty segment.
    case parameter(String)
    /// `*` at the end: matches the rest of the path, zero or more segments.
    case catchAll

    /// The segments of a path or pattern: `/` is none, `/a/` is `a` then an empty one.
    static func split<S: StringProtocol>(_ path: S) -> [S.SubSequence] {
        let rest = path.dropFirst()
        if rest.isEmpty { return [] }
        return rest.split(separator: "/", omittingEmptySubsequences: false)
    }
}

/// A node of the route tree: what may follow the segments that lead to it.
struct RouteNode<Handler> {
    /// A handler with the names of the parameters its pattern binds, in path order.
    struct Endpoint {
        var handler: Handler
        var parameterNames: [String]
    }

    var literals: [String: RouteNode] = [:]
    /// Zero or one child for a `:name` segment; an array gives the recursive struct the
    /// indirection it needs. Parameter names live on the endpoints, so two routes may name
    /// the same position differently.
    var parameter: [RouteNode] = []
    /// Routes that end here.
    var endpoints: [HTTPMethod: Endpoint] = [:]
    /// Routes whose `*` starts here.
    var catchAll: [HTTPMethod: Endpoint] = [:]

    /// Adds a route; returns false if the same method and pattern were already added.
    mutating func insert(_ segments: ArraySlice<RouteSegment>, method: HTTPMethod, endpoint: Endpoint) -> Bool {
        guard let first = segments.first else {
            if endpoints[method] != nil { return false }
            endpoints[method] = endpoint
            return true
        }
        let rest = segments.dropFirst()
        switch first {
        case .literal(let text):
            return literals[text, default: RouteNode()].insert(rest, method: method, endpoint: endpoint)
        case .parameter:
            if parameter.isEmpty { parameter.append(RouteNode()) }
            return parameter[0].insert(rest, method: method, endpoint: endpoint)
        case .catchAll:
            if catchAll[method] != nil { return false }
            catchAll[method] = endpoint
            return true
        }
    }

    /// Calls `visit` with every endpoint table whose pattern matches `segments`, most
    /// specific first (literal before parameter before catch-all, at each depth), with the
    /// parameter values and catch-all rest bound on the way. `visit` returns true to stop.
    func visitMatches(
        _ segments: ArraySlice<String>, rawRest: ArraySlice<Substring>, values: [String],
        _ visit: (_ table: [HTTPMethod: Endpoint], _ values: [String], _ rest: String?) -> Bool
    ) -> Bool {
        if let segment = segments.first {
            if let child = literals[segment],
               child.visitMatches(segments.dropFirst(), rawRest: rawRest.dropFirst(), values: values, visit) {
                return true
            }
            // A parameter never binds an empty segment: `/users/` is not `/users/:id`.
            if !segment.isEmpty, let child = parameter.first,
               child.visitMatches(segments.dropFirst(), rawRest: rawRest.dropFirst(), values: values + [segment], visit) {
                return true
            }
        } else if !endpoints.isEmpty, visit(endpoints, values, nil) {
            return true
        }
        if !catchAll.isEmpty, visit(catchAll, values, rawRest.joined(separator: "/")) {
            return true
        }
        return false
    }
}

extension RouteNode: Sendable where Handler: Sendable {}
extension RouteNode.Endpoint: Sendable where Handler: Sendable {}
