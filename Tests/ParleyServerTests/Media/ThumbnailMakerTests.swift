import ParleyCore
import ParleyProtocol
import Testing
@testable import ParleyServer

/// The thumbnail maker alone, on real JPEG and PNG files: the size and aspect of its result,
/// what it looks like, and images it must refuse without crashing (too many pixels by the
/// header, truncated or corrupt files, other formats).
@Suite struct ThumbnailMakerTests {
    private let maker = ThumbnailMaker(maxPixels: 50_000_000)

    /// A `width` × `height` JPEG of one colour.
    private func jpeg(_ width: Int, _ height: Int, _ colour: (UInt8, UInt8, UInt8)) throws -> [UInt8] {
        let pixels = ThumbnailMaker.Pixels(width: width, height: height,
                                           rgb: Array((0..<width * height).map { _ in [colour.0, colour.1, colour.2] }.joined()))
        return try maker.encodeJPEG(pixels)
    }

    /// The average colour of decoded pixels.
    private func average(_ pixels: ThumbnailMaker.Pixels) -> (Int, Int, Int) {
        var sums = (0, 0, 0)
        for index in stride(from: 0, to: pixels.rgb.count, by: 3) {
            sums.0 += Int(pixels.rgb[index]); sums.1 += Int(pixels.rgb[index + 1]); sums.2 += Int(pixels.rgb[index + 2])
        }
        let count = pixels.width * pixels.height
        return (sums.0 / count, sums.1 / count, sums.2 / count)
    }

    private func failure(_ bytes: [UInt8], maker: ThumbnailMaker? = nil) -> ThumbnailMaker.Failure? {
        do {
            _ = try (maker ?? self.maker).thumbnail(of: bytes)
            return nil
        } catch {
            return error
        }
    }

    @Test func aLargeJPEGBecomesA320PixelJPEGOfTheSameAspectAndColour() throws {
        let original = try jpeg(1200, 800, (200, 40, 40))
        let made = try maker.thumbnail(of: original)
        #expect(made.width == 320 && made.height == 213)
        #expect(made.jpeg.starts(with: [0xFF, 0xD8, 0xFF]) && made.jpeg.count < original.count)
        let back = try maker.decodeJPEG(made.jpeg) { width, height in (width, height) }
        #expect(back.width == 320 && back.height == 213)
        let (r, g, b) = average(back)
        #expect(abs(r - 200) < 12 && abs(g - 40) < 12 && abs(b - 40) < 12, "\(r) \(g) \(b)")
        // Portrait, the long side is the height.
        let tall = try maker.thumbnail(of: try jpeg(500, 2000, (0, 0, 255)))
        #expect(tall.width == 80 && tall.height == 320)
    }

    @Test func aPNGWithTransparencyIsCompositedOntoWhite() throws {
        // Left half opaque black, right half fully transparent.
        let png = TestPNG.rgba(width: 800, height: 400) { x, _ in x < 400 ? (0, 0, 0, 255) : (0, 0, 0, 0) }
        let made = try maker.thumbnail(of: png)
        #expect(made.width == 320 && made.height == 160)
        let back = try maker.decodeJPEG(made.jpeg) { width, height in (width, height) }
        let left = back.rgb[(80 * 320 + 40) * 3], right = back.rgb[(80 * 320 + 280) * 3]
        #expect(left < 30 && right > 225, "\(left) \(right)")
    }

    @Test func anImageOverThePixelLimitIsRefusedByItsHeader() throws {
        // A PNG whose header claims 20000 × 20000 (400 megapixels) with almost no data.
        var bomb = TestPNG.rgba(width: 2, height: 2) { _, _ in (1, 2, 3, 255) }
        let claimed = TestPNG.chunk("IHDR", TestPNG.bigEndian(20_000) + TestPNG.bigEndian(20_000) + [8, 6, 0, 0, 0])
        bomb.replaceSubrange(8..<8 + claimed.count, with: claimed)
        #expect(failure(bomb) == .tooManyPixels(width: 20_000, height: 20_000))
        // A real JPEG over a small limit.
        let small = ThumbnailMaker(maxPixels: 10_000)
        #expect(failure(try jpeg(400, 300, (1, 2, 3)), maker: small) == .tooManyPixels(width: 400, height: 300))
    }

    @Test func corruptAndForeignFilesAreRefusedWithoutACrash() throws {
        let whole = try jpeg(900, 600, (10, 200, 10))
        let cases: [[UInt8]] = [
            Array(whole.prefix(40)),                                        // a JPEG cut inside its header
            [0xFF, 0xD8, 0xFF] + [UInt8](repeating: 0x41, count: 500),      // a JPEG marker and noise
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 7, count: 300), // a PNG signature and noise
            Array(TestPNG.rgba(width: 500, height: 500) { _, _ in (9, 9, 9, 255) }.prefix(2_000)), // a PNG cut short
            Array("GIF89a".utf8) + [UInt8](repeating: 0, count: 100),       // not a format the maker reads
            [],
        ]
        for bytes in cases {
            guard case .undecodable = failure(bytes) else {
                Issue.record("\(bytes.prefix(8)) was not refused as undecodable: \(String(describing: failure(bytes)))")
                continue
            }
        }
    }

    @Test func theRuleAndTheSizesAgree() {
        let big = StoredMedia(id: "a", ownerID: UserIDFixture.one, type: .jpeg, width: 1000, height: 10, size: 1, createdAt: 1)
        #expect(ThumbnailRule.path(for: big) == "/v1/media/a/thumbnail")
        #expect(ThumbnailRule.size(width: 1000, height: 10) == (320, 3))
        #expect(ThumbnailRule.size(width: 3000, height: 1) == (320, 1))
        let small = StoredMedia(id: "b", ownerID: UserIDFixture.one, type: .png, width: 320, height: 200, size: 1, createdAt: 1)
        #expect(ThumbnailRule.path(for: small) == nil)
        let gif = StoredMedia(id: "c", ownerID: UserIDFixture.one, type: .gif, width: 2000, height: 2000, size: 1, createdAt: 1)
        #expect(ThumbnailRule.path(for: gif) == nil)
    }
}

private enum UserIDFixture {
    static let one = UserID(rawValue: 1)
}
