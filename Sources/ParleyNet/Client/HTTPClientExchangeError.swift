/// Why an `HTTPClientExchange` got no answer (connection, TLS or protocol failure).
public struct HTTPClientExchangeError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public var description: String
    init(_ description: String) { self.description = description }
}
