public import ParleyProtocol

/// What a SCRAM sign-in (RFC 5802) checks a password against, for one hash function: the
/// salt, the PBKDF2 iteration count and the two keys derived from the salted password. The
/// password itself cannot be recovered from them, but like a password hash they are secret.
public struct StoredSCRAMCredential: Sendable, Equatable {
    /// The SASL mechanism name, e.g. `SCRAM-SHA-256`.
    public var mechanism: String
    public var salt: [UInt8]
    public var iterations: Int
    /// H(HMAC(SaltedPassword, "Client Key")).
    public var storedKey: [UInt8]
    /// HMAC(SaltedPassword, "Server Key").
    public var serverKey: [UInt8]

    public init(mechanism: String, salt: [UInt8], iterations: Int, storedKey: [UInt8], serverKey: [UInt8]) {
        self.mechanism = mechanism
        self.salt = salt
        self.iterations = iterations
        self.storedKey = storedKey
        self.serverKey = serverKey
    }
}
