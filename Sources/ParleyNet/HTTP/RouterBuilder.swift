/// Collects routes, then `build()`s an immutable `Router` to share between event loops.
///
/// Patterns are paths of segments: literal text (`users`), `:name` for one segment bound
/// as a parameter, and a final `*` for the rest of the path. Patterns come from code, so a
/// malformed pattern or a route added twice is a programming error and stops the program.
public struct RouterBuilder<Handler> {
    private var root = RouteNode<Handler>()

    /// Creates an empty builder.
    public init() {}

    /// Adds a route for `method` and `pattern`, e.g. `add(.get, "/v1/users/:id", handler)`.
    /// A GET route also answers HEAD unless a HEAD route is added for the same pattern.
    public mutating func add(_ method: HTTPMethod, _ pattern: String, _ handler: Handler) {
        precondition(pattern.hasPrefix("/"), "route pattern must start with /: \(pattern)")
        let texts = RouteSegment.split(pattern)
        var segments: [RouteSegment] = []
        var names: [String] = []
        for (index, text) in texts.enumerated() {
            if text == "*" {
                precondition(index == texts.count - 1, "* must be the last segment: \(pattern)")
                segments.append(.catchAll)
            } else if text.hasPrefix(":") {
                let name = String(text.dropFirst())
                precondition(!name.isEmpty && !names.contains(name), "bad parameter name in \(pattern)")
                names.append(name)
                segments.append(.parameter(name))
            } else {
                segments.append(.literal(String(text)))
            }
        }
        let added = root.insert(segments[...], method: method,
                                endpoint: RouteNode.Endpoint(handler: handler, parameterNames: names))
        precondition(added, "route added twice: \(method) \(pattern)")
    }

    /// The router with every route added so far.
    public func build() -> Router<Handler> {
        Router(root: root)
    }
}
