internal import COpenSSL

/// The hash functions SCRAM runs on (RFC 5802 with SHA-1, RFC 7677 with SHA-256), and the
/// primitives it builds from them, through libcrypto.
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

    private var evp: OpaquePointer {
        switch self {
        case .sha1: return EVP_sha1()
        case .sha256: return EVP_sha256()
        }
    }

    /// H(data).
    public func digest(_ data: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: size)
        var length: UInt32 = 0
        let ok = data.withUnsafeBytes { input in
            EVP_Digest(input.baseAddress, input.count, &out, &length, evp, nil)
        }
        precondition(ok == 1 && Int(length) == size, "EVP_Digest failed")
        return out
    }

    /// HMAC(key, data).
    public func hmac(key: [UInt8], _ data: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: size)
        var length: UInt32 = 0
        let result = key.withUnsafeBytes { keyBytes in
            data.withUnsafeBytes { input in
                HMAC(evp, keyBytes.baseAddress, Int32(keyBytes.count),
                     input.baseAddress?.assumingMemoryBound(to: UInt8.self), input.count, &out, &length)
            }
        }
        precondition(result != nil && Int(length) == size, "HMAC failed")
        return out
    }

    /// Hi(password, salt, iterations) of RFC 5802: PBKDF2 with HMAC over this hash.
    public func saltedPassword(_ password: [UInt8], salt: [UInt8], iterations: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: size)
        let ok = password.withUnsafeBytes { passwordBytes in
            salt.withUnsafeBytes { saltBytes in
                PKCS5_PBKDF2_HMAC(passwordBytes.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(passwordBytes.count),
                                  saltBytes.baseAddress?.assumingMemoryBound(to: UInt8.self), Int32(saltBytes.count),
                                  Int32(iterations), evp, Int32(size), &out)
            }
        }
        precondition(ok == 1, "PKCS5_PBKDF2_HMAC failed")
        return out
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

/// Cryptographic randomness from libcrypto, for SCRAM nonces and salts.
enum CryptoRandom {
    static func bytes(_ count: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        precondition(RAND_bytes(&out, Int32(count)) == 1, "RAND_bytes failed")
        return out
    }

    /// Compares in time independent of where the two differ.
    static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        return a.withUnsafeBytes { x in b.withUnsafeBytes { y in CRYPTO_memcmp(x.baseAddress, y.baseAddress, a.count) == 0 } }
    }
}
