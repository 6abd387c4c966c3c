import Testing
@testable import ParleyCore

@Suite struct ImageSnifferTests {
    static func png(width: Int, height: Int) -> [UInt8] {
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
        for value in [width, height] { bytes += [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
        return bytes + [8, 6, 0, 0, 0, 0, 0, 0, 0]
    }

    @Test func png() {
        #expect(ImageSniffer.sniff(Self.png(width: 640, height: 480)) == .init(type: .png, width: 640, height: 480))
        #expect(ImageSniffer.sniff(Array(Self.png(width: 640, height: 480).prefix(20))) == nil)
        #expect(ImageSniffer.sniff(Self.png(width: 0, height: 10)) == nil)
        #expect(ImageSniffer.sniff(Self.png(width: 100_000, height: 10)) == nil)
    }

    @Test func gif() {
        let bytes = Array("GIF89a".utf8) + [0x20, 0x03, 0x58, 0x02, 0, 0, 0]
        #expect(ImageSniffer.sniff(bytes) == .init(type: .gif, width: 800, height: 600))
    }

    @Test func jpegFindsFrameAfterOtherSegments() {
        let app0: [UInt8] = [0xFF, 0xE0, 0x00, 0x04, 0x4A, 0x46]
        let sof0: [UInt8] = [0xFF, 0xC0, 0x00, 0x0B, 0x08, 0x01, 0xE0, 0x02, 0x80, 0x03, 0x01, 0x22, 0x00]
        let bytes: [UInt8] = [0xFF, 0xD8] + app0 + sof0
        #expect(ImageSniffer.sniff(bytes) == .init(type: .jpeg, width: 640, height: 480))
        #expect(ImageSniffer.sniff([0xFF, 0xD8, 0xFF, 0xDA, 0x00, 0x02]) == nil)
        #expect(ImageSniffer.sniff([0xFF, 0xD8, 0xFF, 0xE0, 0xFF, 0xFF]) == nil)
    }

    @Test func webpVariants() {
        func riff(_ chunk: String, _ payload: [UInt8]) -> [UInt8] {
            Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBP".utf8) + Array(chunk.utf8) + [0, 0, 0, 0] + payload
        }
        let lossy = riff("VP8 ", [0, 0, 0, 0x9D, 0x01, 0x2A, 0x40, 0x01, 0xF0, 0x00] + [UInt8](repeating: 0, count: 4))
        #expect(ImageSniffer.sniff(lossy) == .init(type: .webp, width: 320, height: 240))
        // VP8L: width-1 and height-1 in 14 bits each: 99 and 49.
        let bits = 99 | 49 << 14
        let lossless = riff("VP8L", [0x2F, UInt8(bits & 0xFF), UInt8(bits >> 8 & 0xFF), UInt8(bits >> 16 & 0xFF), UInt8(bits >> 24 & 0xFF)] + [UInt8](repeating: 0, count: 8))
        #expect(ImageSniffer.sniff(lossless) == .init(type: .webp, width: 100, height: 50))
        let extended = riff("VP8X", [0, 0, 0, 0, 0x1F, 0x00, 0x00, 0x0F, 0x00, 0x00] + [UInt8](repeating: 0, count: 4))
        #expect(ImageSniffer.sniff(extended) == .init(type: .webp, width: 32, height: 16))
    }

    @Test func rejectsNonImages() {
        #expect(ImageSniffer.sniff(Array("<svg xmlns='http://www.w3.org/2000/svg'/>".utf8)) == nil)
        #expect(ImageSniffer.sniff([]) == nil)
        #expect(ImageSniffer.sniff(Array("GIF89a".utf8)) == nil)
    }
}
