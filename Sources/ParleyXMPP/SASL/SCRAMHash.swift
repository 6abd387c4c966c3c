import ParleyNet

/// The hash functions SCRAM runs on (RFC 5802 with SHA-1, RFC 7677 with SHA-256), and the
/// primitives it builds from them, through ParleyNet's crypto.
public enum SCRAMHash: String, Sendable, CaseIterable {
    case sha1 = "SCRAM-SHA-1"
    case sha256 = "SCRAM-SHA-256"

    /// The SASL mechanism name.
    public var mechanism: String { rawValue }

    /// Bytes of a digest.
    public var size: Int {
        switch self {
        case .sha1: return 20
        case .sha256: return 32
        }
    }

    /// The hash underneath, from ParleyNet.
    private var hash: CryptoHash {
        switch self {
        case .sha1: return .sha1
        case .sha256: return .sha256
        }
    }

    /// H(data).
    public func digest(_ data: [UInt8]) -> [UInt8] { hash.digest(data) }

    /// HMAC(key, data).
    public func hmac(key: [UInt8], _ data: [UInt8]) -> [UInt8] { hash.hmac(key: key, data) }

    /// Hi(password, salt, iterations) of RFC 5802: PBKDF2 with HMAC over this hash.
    public func saltedPassword(_ password: [UInt8], salt: [UInt8], iterations: Int) -> [UInt8] {
        hash.pbkdf2(password: password, salt: salt, iterations: iterations)
    }

    /// The credential a server stores for `password` (StoredKey and ServerKey).
    public func credential(password: String, salt: [UInt8], iterations: Int) -> StoredKeys {
        let salted = saltedPassword(Array(password.utf8), salt: salt, iterations: iterations)
        let clientKey = hmac(key: salted, Array("Client Key".utf8))
        return StoredKeys(storedKey: digest(clientKey), serverKey: hmac(key: salted, Array("Server Key".utf8)))
    }

    /// The two keys of a stored SCRAM credential.
    public struct StoredKeys: Sendable, Equatable {
        public var storedKey: [UInt8]
        public var serverKey: [UInt8]
    }
}
