import Testing
@testable import ParleyNet

@Suite struct SHA1Tests {
    private func hex(_ bytes: [UInt8]) -> String {
        bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    // FIPS 180-2 Appendix A vectors, plus the empty message.
    @Test func knownVectors() {
        #expect(hex(SHA1.hash([UInt8]())) == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
        #expect(hex(SHA1.hash(Array("abc".utf8))) == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(hex(SHA1.hash(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
                == "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
        #expect(hex(SHA1.hash(Array("The quick brown fox jumps over the lazy dog".utf8)))
                == "2fd4e1c67a2d28fced849ee1bb76e7391b93eb12")
    }

    @Test func millionAs() {
        var hasher = SHA1()
        let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 1000)
        for _ in 0..<1000 { hasher.update(chunk) }
        #expect(hex(hasher.finalize()) == "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
    }

    @Test func splitAtEveryOffsetMatchesOneShot() {
        let message = (0..<200).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let expected = SHA1.hash(message)
        #expect(expected.count == SHA1.digestSize)
        for cut in 0...message.count {
            var hasher = SHA1()
            hasher.update(message[..<cut])
            hasher.update(message[cut...])
            #expect(hasher.finalize() == expected, "cut at \(cut)")
        }
    }

    @Test func paddingBoundaryLengths() {
        // 55, 56 and 64 bytes straddle the length field's block boundary.
        #expect(hex(SHA1.hash([UInt8](repeating: 0x61, count: 55))) == "c1c8bbdc22796e28c0e15163d20899b65621d65a")
        #expect(hex(SHA1.hash([UInt8](repeating: 0x61, count: 56))) == "c2db330f6083854c99d4b5bfb6e8f29f201be699")
        #expect(hex(SHA1.hash([UInt8](repeating: 0x61, count: 64))) == "0098ba824b5c16427bd7a1122a5a442a25ec644d")
    }
}
