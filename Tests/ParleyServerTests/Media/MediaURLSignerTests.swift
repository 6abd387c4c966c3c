import Foundation
import ParleyCore
import ParleyNet
import ParleyProtocol
import Testing

/// The signed media links alone: what they look like, how long they last, and that any
/// change to the id, the expiry or the signature (or another server's key) is refused.
@Suite struct MediaURLSignerTests {
    private static func signer(lifetime: Int = 3_600, key: String = "key one") -> MediaURLSigner {
        let key = Array(key.utf8)
        return MediaURLSigner(lifetimeSeconds: lifetime) { CryptoHash.sha256.hmac(key: key, $0) }
    }

    /// The `exp` and `sig` query values of a minted link.
    private static func parts(_ url: String) throws -> (path: String, exp: String, sig: String) {
        let components = try #require(URLComponents(string: url))
        let items = components.queryItems ?? []
        return (components.path, try #require(items.first { $0.name == "exp" }?.value), try #require(items.first { $0.name == "sig" }?.value))
    }

    private func refusal(_ body: () throws(ProtocolError) -> Void) -> ErrorCode? {
        do {
            try body()
            return nil
        } catch {
            return error.code
        }
    }

    @Test func aMintedLinkIsAcceptedUntilItExpires() throws {
        let signer = Self.signer(lifetime: 3_600)
        let now: Int64 = 1_700_000_000_123
        let link = signer.url(for: "abc_DEF-1", now: now)
        let (path, exp, sig) = try Self.parts(link.url)
        #expect(path == "/v1/media/abc_DEF-1")
        #expect(sig.count == 64 && sig.allSatisfy(\.isHexDigit))
        #expect(link.expiresAt == Int64(exp).map { $0 * 1000 })
        // At least the lifetime, at most a quarter more (the rounding step).
        #expect(link.expiresAt >= now + 3_600_000 && link.expiresAt <= now + 3_600_000 + 900_000 + 1_000)
        #expect(refusal { () throws(ProtocolError) in try signer.verify(mediaID: "abc_DEF-1", expires: exp, signature: sig, now: now) } == nil)
        #expect(refusal { () throws(ProtocolError) in
            try signer.verify(mediaID: "abc_DEF-1", expires: exp, signature: sig, now: link.expiresAt - 1)
        } == nil)
        #expect(refusal { () throws(ProtocolError) in
            try signer.verify(mediaID: "abc_DEF-1", expires: exp, signature: sig, now: link.expiresAt)
        } == .urlExpired)
    }

    @Test func linksMintedCloseTogetherAreTheSameString() {
        let signer = Self.signer(lifetime: 3_600)
        let a = signer.url(for: "m", now: 1_700_000_000_000)
        let b = signer.url(for: "m", now: 1_700_000_060_000)
        #expect(a == b)
        let c = signer.url(for: "m", now: 1_700_000_000_000 + 900_000)
        #expect(c.expiresAt > a.expiresAt)
    }

    @Test func anyChangeIsABadSignature() throws {
        let signer = Self.signer()
        let now: Int64 = 1_700_000_000_000
        let (_, exp, sig) = try Self.parts(signer.url(for: "media1", now: now).url)
        let flipped = String(sig.dropLast()) + (sig.hasSuffix("0") ? "1" : "0")
        let cases: [(String, String?, String?)] = [
            ("media2", exp, sig),                          // another upload
            ("media1", String(Int64(exp)! + 1), sig),      // a later expiry
            ("media1", exp, flipped),                      // a changed signature
            ("media1", exp, sig.uppercased()),             // not the form the server writes
            ("media1", exp, String(sig.prefix(32))),       // a cut signature
            ("media1", nil, sig),                          // missing parts
            ("media1", exp, nil),
            ("media1", "soon", sig),
            ("media1", String(repeating: "9", count: 40), sig),
        ]
        for (id, expires, signature) in cases {
            #expect(refusal { () throws(ProtocolError) in try signer.verify(mediaID: id, expires: expires, signature: signature, now: now) }
                    == .badSignature, "\(id) \(expires ?? "-") \(signature ?? "-")")
        }
        // Another server's key (another `server.secret`) signs differently.
        #expect(refusal { () throws(ProtocolError) in
            try Self.signer(key: "key two").verify(mediaID: "media1", expires: exp, signature: sig, now: now)
        } == .badSignature)
    }

    @Test func anExpiredLinkIsExpiredNotForged() throws {
        let signer = Self.signer(lifetime: 1)
        let now: Int64 = 1_700_000_000_500
        let link = signer.url(for: "m", now: now)
        let (_, exp, sig) = try Self.parts(link.url)
        #expect(link.expiresAt >= now + 1_000 && link.expiresAt <= now + 2_000)
        #expect(refusal { () throws(ProtocolError) in try signer.verify(mediaID: "m", expires: exp, signature: sig, now: now + 2_000) } == .urlExpired)
        #expect(ErrorCode.urlExpired.httpStatus == 403 && ErrorCode.badSignature.httpStatus == 403)
    }
}
