internal import COpenSSL

/// The hash functions other targets need (XMPP's SCRAM: digests, HMAC, PBKDF2), through
/// libcrypto, with no C type in the interface.
public enum CryptoHash: Sendable, CaseIterable {
    case sha1
    case sha256
    case sha512

    /// Bytes of a digest.
    public var size: Int {
        switch self {
        case .sha1: return 20
        case .sha256: return 32
        case .sha512: return 64
        }
    }

    private var evp: OpaquePointer {
        switch self {
        case .sha1: return EVP_sha1()
        case .sha256: return EVP_sha256()
        case .sha512: return EVP_sha512()
        }
    }

    /// H(data).
    public func digest(_ data: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: size)
        var length: UInt32 = 0
        let ok = data.withUnsafeBytes { input in
            EVP_Digest(input.baseAddress, input.count, &out, &length, evp, nil)
        }
        // Only fails when libcrypto cannot allocate: nothing sensible to go on with.
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

    /// PBKDF2 with HMAC over this hash; `length` bytes (default: one digest).
    public func pbkdf2(password: [UInt8], salt: [UInt8], iterations: Int, length: Int? = nil) -> [UInt8] {
        let count = length ?? size
        var out = [UInt8](repeating: 0, count: count)
        let ok = password.withUnsafeBytes { passwordBytes in
            salt.withUnsafeBytes { saltBytes in
                PKCS5_PBKDF2_HMAC(passwordBytes.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(passwordBytes.count),
                                  saltBytes.baseAddress?.assumingMemoryBound(to: UInt8.self), Int32(saltBytes.count),
                                  Int32(iterations), evp, Int32(count), &out)
            }
        }
        precondition(ok == 1, "PKCS5_PBKDF2_HMAC failed")
        return out
    }
}
