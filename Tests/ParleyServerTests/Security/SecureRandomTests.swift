import Testing
@testable import ParleyServer

@Suite struct SecureRandomTests {
    private static let urlSafe = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")

    @Test func givesTheBytesAskedFor() {
        #expect(SecureRandom.bytes(0).isEmpty)
        #expect(SecureRandom.bytes(16).count == 16)
        #expect(SecureRandom.bytes(32) != SecureRandom.bytes(32))
    }

    @Test func tokensAreURLSafeAndUnique() {
        var seen = Set<String>()
        for _ in 0..<1000 {
            let token = SecureRandom.token()
            #expect(token.count == 43) // 256 bits in unpadded Base64
            #expect(token.allSatisfy { Self.urlSafe.contains($0) })
            seen.insert(token)
        }
        #expect(seen.count == 1000)
        #expect(SecureRandom.token(byteCount: 16).count == 22)
    }

    @Test func encodesBase64URLWithoutPadding() {
        #expect(SecureRandom.base64URLEncoded([]) == "")
        #expect(SecureRandom.base64URLEncoded([0xFB, 0xFF]) == "-_8")
        #expect(SecureRandom.base64URLEncoded(Array("hello".utf8)) == "aGVsbG8")
    }

    @Test(arguments: 4...8)
    func numericCodesHaveOnlyDigits(length: Int) {
        for _ in 0..<200 {
            let code = SecureRandom.numericCode(digits: length)
            #expect(code.count == length)
            #expect(code.allSatisfy { ("0"..."9").contains($0) })
        }
    }

    @Test func numericCodesUseEveryDigit() {
        var counts = [Character: Int]()
        for _ in 0..<2000 {
            counts[SecureRandom.numericCode(digits: 1).first ?? "x", default: 0] += 1
        }
        #expect(counts.keys.sorted() == Array("0123456789"))
        // Expected 200 each; 100 is more than seven standard deviations away.
        #expect(counts.values.allSatisfy { $0 > 100 })
    }

    @Test func uniformStaysBelowTheBound() {
        for _ in 0..<1000 {
            #expect(SecureRandom.uniform(below: 7) < 7)
        }
    }
}
