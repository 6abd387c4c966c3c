internal import COpenSSL

/// HKDF and AES-128-GCM through libcrypto, as Web Push's content encoding (RFC 8188,
/// RFC 8291) uses them.
public enum CryptoCipher {
    /// HKDF-SHA-256 (RFC 5869): `length` bytes from `key` with `salt` and `info`.
    public static func hkdfSHA256(salt: [UInt8], key: [UInt8], info: [UInt8], length: Int) throws(CryptoError) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: length)
        guard parley_hkdf_sha256(salt, salt.count, key, key.count, info, info.count, &out, length) == 1 else {
            throw CryptoError("HKDF failed")
        }
        return out
    }

    /// AES-128-GCM of `plaintext` with a 16-byte key and a 12-byte nonce, no associated
    /// data: the ciphertext followed by the 16-byte tag.
    public static func sealAES128GCM(_ plaintext: [UInt8], key: [UInt8], nonce: [UInt8]) throws(CryptoError) -> [UInt8] {
        guard key.count == 16, nonce.count == 12 else { throw CryptoError("AES-128-GCM takes a 16-byte key and a 12-byte nonce") }
        var out = [UInt8](repeating: 0, count: plaintext.count + 16)
        guard parley_aes128gcm_seal(key, nonce, plaintext, plaintext.count, &out) == 1 else { throw CryptoError("AES-128-GCM failed") }
        return out
    }

    /// The plaintext of `sealed` (ciphertext then tag); throws when the tag does not match.
    public static func openAES128GCM(_ sealed: [UInt8], key: [UInt8], nonce: [UInt8]) throws(CryptoError) -> [UInt8] {
        guard key.count == 16, nonce.count == 12, sealed.count >= 16 else { throw CryptoError("not an AES-128-GCM record") }
        var out = [UInt8](repeating: 0, count: sealed.count - 16)
        guard parley_aes128gcm_open(key, nonce, sealed, sealed.count, &out) == 1 else {
            throw CryptoError("AES-128-GCM: the tag does not match")
        }
        return out
    }
}
