import CSodium

/// Cryptographically secure random values from libsodium (`randombytes_buf`, which reads the
/// kernel's generator): for session tokens, salts and one-time codes, never `Int.random`.
public enum SecureRandom {
    /// `count` random bytes.
    public static func bytes(_ count: Int) -> [UInt8] {
        precondition(count >= 0, "negative byte count")
        Sodium.ensureInitialized()
        var bytes = [UInt8](repeating: 0, count: count)
        bytes.withUnsafeMutableBytes { buffer in
            if let base = buffer.baseAddress { randombytes_buf(base, buffer.count) }
        }
        return bytes
    }

    /// A random token of `byteCount` bytes (256 bits by default) as URL-safe Base64 without
    /// padding (`A–Z a–z 0–9 - _`; 43 characters for 32 bytes), safe in URLs, headers and
    /// cookies without escaping.
    public static func token(byteCount: Int = 32) -> String {
        base64URLEncoded(bytes(byteCount))
    }

    /// A code of `digits` decimal digits (leading zeros kept), such as an SMS login code.
    /// Each digit is drawn uniformly with `randombytes_uniform`, so no value is more likely
    /// than another (no modulo bias).
    public static func numericCode(digits: Int) -> String {
        precondition(digits > 0, "a code needs at least one digit")
        Sodium.ensureInitialized()
        var text = ""
        text.reserveCapacity(digits)
        for _ in 0..<digits {
            text.unicodeScalars.append(Unicode.Scalar(UInt8(ascii: "0") + UInt8(randombytes_uniform(10))))
        }
        return text
    }

    /// A number uniformly drawn from `0..<upperBound` (0 when `upperBound` is below 2).
    public static func uniform(below upperBound: UInt32) -> UInt32 {
        Sodium.ensureInitialized()
        return randombytes_uniform(upperBound)
    }

    /// URL-safe Base64 without padding (RFC 4648 §5).
    static func base64URLEncoded(_ bytes: [UInt8]) -> String {
        let variant = Int32(sodium_base64_VARIANT_URLSAFE_NO_PADDING)
        // The length libsodium reports includes the terminating NUL.
        var output = [CChar](repeating: 0, count: sodium_base64_encoded_len(bytes.count, variant))
        bytes.withUnsafeBufferPointer { input in
            _ = sodium_bin2base64(&output, output.count, input.baseAddress, input.count, variant)
        }
        return String(decoding: output.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
