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

    /// The salt a sign-in for `username` is answered with when it has no account: derived
    /// from the server's secret, so it does not change between tries (a fresh random salt for
    /// unknown names and a fixed one for real accounts would tell which names exist).
    /// Case-folded like usernames, which are looked up without regard to case.
    public static func decoySalt(for username: String, mechanism: String, secret: [UInt8]) -> [UInt8] {
        Array(SCRAMHash.sha256.hmac(key: secret, Array("scram-decoy-salt\u{0}\(mechanism)\u{0}\(username.lowercased())".utf8)).prefix(saltBytes))
    }

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
