import Foundation
import ParleyNet
import Testing
@testable import ParleyServer

/// RFC 8291's worked example (Appendix A): the same keys, salt and secret give the same
/// message, byte for byte; and the browser's side (its private key) reads it back.
@Suite struct WebPushEncryptionTests {
    static let plaintext = "When I grow up, I want to be a watermelon"
    static let senderPrivate = "yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw"
    static let senderPublic = "BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8"
    static let receiverPrivate = "q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94"
    static let receiverPublic = "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"
    static let salt = "DGv6ra1nlYgDCS1FRnbzlw"
    static let authSecret = "BTBZMqHH6r4Tts7J_aSIgg"
    static let message = "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN"

    static func bytes(_ text: String) throws -> [UInt8] {
        try #require(Base64URL.decode(text))
    }

    @Test func matchesTheRFCExample() throws {
        let sender = try P256Key(privateKey: try Self.bytes(Self.senderPrivate), publicKey: try Self.bytes(Self.senderPublic))
        let encryption = try WebPushEncryption(p256dh: try Self.bytes(Self.receiverPublic), auth: try Self.bytes(Self.authSecret))
        let body = try encryption.encrypt(Array(Self.plaintext.utf8), senderKey: sender, salt: try Self.bytes(Self.salt))
        #expect(Base64URL.encode(body) == Self.message)
    }

    @Test func theReceiverDecryptsAFreshMessage() throws {
        let receiver = try P256Key(privateKey: try Self.bytes(Self.receiverPrivate), publicKey: try Self.bytes(Self.receiverPublic))
        let auth = try Self.bytes(Self.authSecret)
        let body = try WebPushEncryption(p256dh: receiver.publicKey, auth: auth).encrypt(Array("hello".utf8))
        #expect(Base64URL.encode(body) != Self.message)
        // The receiver's side of RFC 8291 §3.4, from the header.
        let salt = Array(body[0..<16])
        #expect(body[16..<20].elementsEqual([0, 0, 0x10, 0]))
        #expect(body[20] == 65)
        let sender = try P256Key(publicKey: Array(body[21..<86]))
        let shared = try receiver.sharedSecret(with: sender)
        let inputKey = try CryptoCipher.hkdfSHA256(salt: auth, key: shared,
                                                   info: Array("WebPush: info".utf8) + [0] + receiver.publicKey + sender.publicKey, length: 32)
        let key = try CryptoCipher.hkdfSHA256(salt: salt, key: inputKey, info: Array("Content-Encoding: aes128gcm".utf8) + [0], length: 16)
        let nonce = try CryptoCipher.hkdfSHA256(salt: salt, key: inputKey, info: Array("Content-Encoding: nonce".utf8) + [0], length: 12)
        let plain = try CryptoCipher.openAES128GCM(Array(body[86...]), key: key, nonce: nonce)
        #expect(plain == Array("hello".utf8) + [2])
        var tampered = Array(body[86...])
        tampered[0] ^= 1
        #expect(throws: CryptoError.self) { try CryptoCipher.openAES128GCM(tampered, key: key, nonce: nonce) }
    }

    @Test func refusesKeysThatAreNotOnTheCurve() throws {
        var point = try Self.bytes(Self.receiverPublic)
        point[40] ^= 0xFF
        #expect(throws: CryptoError.self) { try WebPushEncryption(p256dh: point, auth: try Self.bytes(Self.authSecret)) }
        #expect(throws: CryptoError.self) { try WebPushEncryption(p256dh: try Self.bytes(Self.receiverPublic), auth: [1, 2, 3]) }
    }

    @Test func refusesAPayloadLargerThanOneRecord() throws {
        let encryption = try WebPushEncryption(p256dh: try Self.bytes(Self.receiverPublic), auth: try Self.bytes(Self.authSecret))
        #expect(throws: CryptoError.self) { try encryption.encrypt([UInt8](repeating: 65, count: WebPushEncryption.maxPayloadBytes + 1)) }
        let body = try encryption.encrypt([UInt8](repeating: 65, count: WebPushEncryption.maxPayloadBytes))
        #expect(body.count == WebPushEncryption.recordSize)
    }
}
