/// A libcrypto operation that failed or an input it refused (a bad key, a wrong tag).
public struct CryptoError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What failed.
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
