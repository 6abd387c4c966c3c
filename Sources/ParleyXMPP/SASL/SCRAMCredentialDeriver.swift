import ParleyNet
public import ParleyCore

/// Makes the SCRAM-SHA-1 and SCRAM-SHA-256 credentials of a password with a fresh random salt
/// each; `AccountService` calls it whenever it sees a password.
public struct SCRAMCredentialDeriver: SCRAMCredentialDeriving {
    /// PBKDF2 iterations; RFC 7677 asks for at least 4096.
    public let iterations: Int
    /// The iteration count used unless told otherwise.
    public static let defaultIterations = 4096
    /// Bytes of salt.
    public static let saltBytes = 16

    public init(iterations: Int = defaultIterations) {
        self.iterations = iterations
    }

    public var mechanisms: [String] { SCRAMHash.allCases.map(\.mechanism) }

    public func derive(password: String) -> [StoredSCRAMCredential] {
        SCRAMHash.allCases.map { hash in
            let salt = CryptoRandom.bytes(Self.saltBytes)
            let keys = hash.credential(password: password, salt: salt, iterations: iterations)
            return StoredSCRAMCredential(mechanism: hash.mechanism, salt: salt, iterations: iterations,
                                         storedKey: keys.storedKey, serverKey: keys.serverKey)
        }
    }
}
