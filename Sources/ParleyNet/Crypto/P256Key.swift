internal import COpenSSL

/// A NIST P-256 key (a key pair, or a public key alone) in libcrypto: ECDH and ES256
/// signatures for Web Push (RFC 8291's message keys, RFC 8292's VAPID tokens), with no C
/// type in the interface.
///
/// `@unchecked Sendable`: the `EVP_PKEY` is never changed after `init`, and libcrypto lets
/// threads use one key at once for derivations and signatures (each makes its own context).
public final class P256Key: @unchecked Sendable {
    private let key: OpaquePointer
    /// The uncompressed public point: 0x04, then x and y (65 bytes).
    public let publicKey: [UInt8]

    private init(key: OpaquePointer) throws(CryptoError) {
        self.key = key
        var point = [UInt8](repeating: 0, count: 65)
        guard parley_p256_public(key, &point) == 1 else {
            EVP_PKEY_free(key)
            throw CryptoError("cannot read the P-256 public key")
        }
        publicKey = point
    }

    deinit {
        EVP_PKEY_free(key)
    }

    /// A new random key pair.
    public static func generate() throws(CryptoError) -> P256Key {
        guard let key = parley_p256_generate() else { throw CryptoError("cannot generate a P-256 key") }
        return try P256Key(key: key)
    }

    /// A key pair from its private scalar (32 bytes) and uncompressed public point (65 bytes).
    public convenience init(privateKey: [UInt8], publicKey: [UInt8]) throws(CryptoError) {
        guard privateKey.count == 32, publicKey.count == 65 else { throw CryptoError("a P-256 key pair is 32 + 65 bytes") }
        guard let key = parley_p256_from_raw(privateKey, publicKey, 65) else {
            throw CryptoError("not a P-256 key pair")
        }
        try self.init(key: key)
    }

    /// A public key from its uncompressed point (65 bytes); refused unless it is on the curve.
    public convenience init(publicKey: [UInt8]) throws(CryptoError) {
        guard publicKey.count == 65, publicKey[0] == 4 else { throw CryptoError("a P-256 public key is 65 bytes starting with 4") }
        guard let key = parley_p256_from_raw(nil, publicKey, 65) else { throw CryptoError("not a point on P-256") }
        try self.init(key: key)
    }

    /// The private scalar (32 bytes), or nil for a public key alone.
    public var privateKey: [UInt8]? {
        var scalar = [UInt8](repeating: 0, count: 32)
        return parley_p256_private(key, &scalar) == 1 ? scalar : nil
    }

    /// ECDH with `peer`'s public key: the shared point's x coordinate (32 bytes).
    public func sharedSecret(with peer: P256Key) throws(CryptoError) -> [UInt8] {
        var secret = [UInt8](repeating: 0, count: 32)
        guard parley_p256_ecdh(key, peer.key, &secret) == 1 else { throw CryptoError("ECDH failed") }
        return secret
    }

    /// An ECDSA signature of SHA-256(`message`) as JWS ES256 wants it: r then s, 32 bytes each.
    public func signES256(_ message: [UInt8]) throws(CryptoError) -> [UInt8] {
        var signature = [UInt8](repeating: 0, count: 64)
        guard parley_p256_sign(key, message, message.count, &signature) == 1 else { throw CryptoError("ES256 signing failed") }
        return signature
    }

    /// Whether `signature` (r then s) is this key's ES256 signature of `message`.
    public func verifyES256(_ signature: [UInt8], of message: [UInt8]) -> Bool {
        signature.count == 64 && parley_p256_verify(key, message, message.count, signature) == 1
    }
}
