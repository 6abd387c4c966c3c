import CSodium

/// The SHA-256 digest of a secret token (a session or reset token), which is all the server
/// stores: a leaked database then yields no usable tokens. A 256-bit random token needs no
/// salt or slow hash; SHA-256 is enough and cheap enough to run on every request.
public struct TokenHash: Hashable, Sendable, CustomStringConvertible {
    /// The 32-byte digest, as stored.
    public let bytes: [UInt8]

    /// The digest of `token`'s UTF-8 bytes.
    public init(token: String) {
        bytes = Self.sha256(Array(token.utf8))
    }

    /// A digest read back from storage; nil unless it is exactly 32 bytes.
    public init?(digest: [UInt8]) {
        guard digest.count == Int(crypto_hash_sha256_bytes()) else { return nil }
        bytes = digest
    }

    /// The digest as 64 lower-case hexadecimal characters.
    public var hex: String { Self.hex(bytes) }

    /// The hexadecimal digest; it reveals nothing about the token, so it may be logged.
    public var description: String { hex }

    /// SHA-256 of `data` (`crypto_hash_sha256`).
    public static func sha256(_ data: [UInt8]) -> [UInt8] {
        Sodium.ensureInitialized()
        var digest = [UInt8](repeating: 0, count: Int(crypto_hash_sha256_bytes()))
        data.withUnsafeBufferPointer { input in
            _ = crypto_hash_sha256(&digest, input.baseAddress, UInt64(input.count))
        }
        return digest
    }

    /// Lower-case hexadecimal of `bytes` (`sodium_bin2hex`).
    static func hex(_ bytes: [UInt8]) -> String {
        var output = [CChar](repeating: 0, count: bytes.count * 2 + 1)
        bytes.withUnsafeBufferPointer { input in
            _ = sodium_bin2hex(&output, output.count, input.baseAddress, input.count)
        }
        return String(decoding: output.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
