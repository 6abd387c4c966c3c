internal import COpenSSL

/// Cryptographic randomness and constant-time comparison from libcrypto (nonces, salts,
/// stream ids).
public enum CryptoRandom {
    /// `count` random bytes.
    public static func bytes(_ count: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        // RAND_bytes fails only if the system's entropy source is gone.
        precondition(RAND_bytes(&out, Int32(count)) == 1, "RAND_bytes failed")
        return out
    }

    /// Compares in time independent of where the two differ.
    public static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        return a.withUnsafeBytes { x in b.withUnsafeBytes { y in CRYPTO_memcmp(x.baseAddress, y.baseAddress, a.count) == 0 } }
    }
}
