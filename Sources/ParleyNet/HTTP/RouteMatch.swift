/// The result of looking a request up in a `Router`.
public enum RouteMatch<Handler> {
    /// A route matched. `parameters` maps each `:name` of its pattern to the percent-decoded
    /// segment, and `"*"` (for a catch-all pattern) to the rest of the path, still
    /// percent-encoded (decoding it would make `%2F` look like a separator).
    case found(Handler, parameters: [String: String])
    /// The path matched some routes, none for this method: answer 405 with an `Allow`
    /// header listing `allowed`.
    case methodNotAllowed(allowed: [HTTPMethod])
    /// No route has this path (or the path is malformed): answer 404.
    case notFound
}

extension RouteMatch: Sendable where Handler: Sendable {}
