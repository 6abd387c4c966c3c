/// Why TLS could not be set up, or why a TLS connection failed (a bad certificate file, a
/// failed handshake, a peer certificate that did not verify).
public struct TLSError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, for logs and error messages (never key material).
    public var description: String

    /// A TLS error with `description`.
    public init(_ description: String) { self.description = description }
}
