import Testing
@testable import ParleyServer

@Suite struct TokenHashTests {
    @Test func matchesKnownSHA256Vectors() {
        #expect(TokenHash(token: "abc").hex == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(TokenHash(token: "").hex == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(TokenHash.sha256(Array("abc".utf8)).count == 32)
    }

    @Test func roundTripsThroughStorage() throws {
        let token = SecureRandom.token()
        let hash = TokenHash(token: token)
        #expect(hash.bytes.count == 32)
        let stored = try #require(TokenHash(digest: hash.bytes))
        #expect(stored == hash)
        #expect(TokenHash(digest: Array(hash.bytes.dropLast())) == nil)
        #expect(hash.description == hash.hex)
        #expect(!hash.description.contains(token))
        #expect(TokenHash(token: token + "x") != hash)
    }
}
