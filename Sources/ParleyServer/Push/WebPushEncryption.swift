import ParleyNet

/// Message encryption for Web Push (RFC 8291): the payload is encrypted for one
/// subscription with the `aes128gcm` content coding (RFC 8188), in one record, under keys
/// agreed by ECDH between a fresh key pair of ours and the browser's `p256dh` key, mixed with
/// the subscription's `auth` secret.
struct WebPushEncryption {
    /// The record size written in the header: the push services' 4096-byte body limit.
    static let recordSize = 4096
    /// The largest payload one record holds: the record size less the padding delimiter
    /// and the tag, and the header (86 bytes) the body carries besides.
    static let maxPayloadBytes = recordSize - 1 - 16 - 86

    /// The subscription's public key (uncompressed P-256 point).
    let userAgentKey: P256Key
    /// The subscription's 16-byte authentication secret.
    let authSecret: [UInt8]

    init(p256dh: [UInt8], auth: [UInt8]) throws(CryptoError) {
        guard auth.count == 16 else { throw CryptoError("the auth secret is 16 bytes") }
        userAgentKey = try P256Key(publicKey: p256dh)
        authSecret = auth
    }

    /// The request body for `payload`: the header (salt, record size, our public key) and
    /// the one encrypted record. `senderKey` and `salt` are fresh for every message; tests
    /// give the RFC's.
    func encrypt(_ payload: [UInt8], senderKey: P256Key? = nil, salt: [UInt8]? = nil) throws(CryptoError) -> [UInt8] {
        guard payload.count <= Self.maxPayloadBytes else { throw CryptoError("the payload is larger than one record") }
        let sender: P256Key
        if let senderKey { sender = senderKey } else { sender = try P256Key.generate() }
        let salt = salt ?? CryptoRandom.bytes(16)
        guard salt.count == 16 else { throw CryptoError("the salt is 16 bytes") }
        let shared = try sender.sharedSecret(with: userAgentKey)
        let keyInfo = Array("WebPush: info".utf8) + [0] + userAgentKey.publicKey + sender.publicKey
        let inputKey = try CryptoCipher.hkdfSHA256(salt: authSecret, key: shared, info: keyInfo, length: 32)
        let contentKey = try CryptoCipher.hkdfSHA256(salt: salt, key: inputKey, info: Array("Content-Encoding: aes128gcm".utf8) + [0], length: 16)
        let nonce = try CryptoCipher.hkdfSHA256(salt: salt, key: inputKey, info: Array("Content-Encoding: nonce".utf8) + [0], length: 12)
        // One record, so it is the last: the padding delimiter is 2, with no padding after it.
        let record = try CryptoCipher.sealAES128GCM(payload + [2], key: contentKey, nonce: nonce)
        let size = UInt32(Self.recordSize)
        let header = salt + [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)]
            + [UInt8(sender.publicKey.count)] + sender.publicKey
        return header + record
    }
}
