import Testing
@testable import ParleyNet

@Suite struct WebSocketMaskingKeyTests {
    private func reference(_ bytes: [UInt8], key: WebSocketMaskingKey, offset: Int) -> [UInt8] {
        bytes.enumerated().map { $0.element ^ key[($0.offset + offset) % 4] }
    }

    @Test func bytesAreInWireOrder() {
        let key = WebSocketMaskingKey(0x37, 0xFA, 0x21, 0x3D)
        #expect(key.rawValue == 0x37FA_213D)
        #expect([key[0], key[1], key[2], key[3]] == [0x37, 0xFA, 0x21, 0x3D])
    }

    @Test func wordAtATimeMatchesBytewiseAtEveryOffsetAndLength() {
        let key = WebSocketMaskingKey(0x01, 0x80, 0xFE, 0x5A)
        let data = (0..<41).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        for offset in 0..<8 {
            for count in 0...data.count {
                var bytes = Array(data[..<count])
                bytes.withUnsafeMutableBytes { key.apply(to: $0, offset: offset) }
                #expect(bytes == reference(Array(data[..<count]), key: key, offset: offset), "offset \(offset) count \(count)")
            }
        }
    }

    @Test func applyingTwiceRestoresTheBytes() {
        let key = WebSocketMaskingKey.random()
        let original = (0..<100).map { UInt8($0) }
        var bytes = original
        bytes.withUnsafeMutableBytes { key.apply(to: $0) }
        bytes.withUnsafeMutableBytes { key.apply(to: $0) }
        #expect(bytes == original)
    }
}
