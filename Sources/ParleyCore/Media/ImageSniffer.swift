/// Tells an image's format and pixel size from its bytes, never from a name or header a
/// client sent. Reads only headers; bounded work on any input.
public enum ImageSniffer {
    /// What the bytes are.
    public struct Result: Sendable, Equatable {
        public var type: ImageType
        public var width: Int
        public var height: Int
    }

    /// Largest width or height accepted (a bomb guard for clients that decode images).
    public static let maxDimension = 20_000

    /// The format and size, or nil if the bytes are not a well-formed PNG, JPEG, GIF or WebP
    /// header with a plausible size.
    public static func sniff(_ bytes: [UInt8]) -> Result? {
        let result: Result?
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            result = png(bytes)
        } else if bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
            result = jpeg(bytes)
        } else if bytes.starts(with: Array("GIF87a".utf8)) || bytes.starts(with: Array("GIF89a".utf8)) {
            result = gif(bytes)
        } else if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("WEBP".utf8) {
            result = webp(bytes)
        } else {
            result = nil
        }
        guard let result, (1...maxDimension).contains(result.width), (1...maxDimension).contains(result.height) else {
            return nil
        }
        return result
    }

    private static func bigEndian32(_ b: [UInt8], _ at: Int) -> Int? {
        guard at >= 0, at + 4 <= b.count else { return nil }
        return Int(b[at]) << 24 | Int(b[at + 1]) << 16 | Int(b[at + 2]) << 8 | Int(b[at + 3])
    }

    private static func bigEndian16(_ b: [UInt8], _ at: Int) -> Int? {
        guard at >= 0, at + 2 <= b.count else { return nil }
        return Int(b[at]) << 8 | Int(b[at + 1])
    }

    private static func littleEndian16(_ b: [UInt8], _ at: Int) -> Int? {
        guard at >= 0, at + 2 <= b.count else { return nil }
        return Int(b[at]) | Int(b[at + 1]) << 8
    }

    private static func littleEndian24(_ b: [UInt8], _ at: Int) -> Int? {
        guard at >= 0, at + 3 <= b.count else { return nil }
        return Int(b[at]) | Int(b[at + 1]) << 8 | Int(b[at + 2]) << 16
    }

    private static func png(_ b: [UInt8]) -> Result? {
        // The first chunk must be IHDR: length 13, then width and height.
        guard bigEndian32(b, 8) == 13, b.count >= 24, Array(b[12..<16]) == Array("IHDR".utf8),
              let width = bigEndian32(b, 16), let height = bigEndian32(b, 20) else { return nil }
        return Result(type: .png, width: width, height: height)
    }

    private static func gif(_ b: [UInt8]) -> Result? {
        guard let width = littleEndian16(b, 6), let height = littleEndian16(b, 8) else { return nil }
        return Result(type: .gif, width: width, height: height)
    }

    private static func jpeg(_ b: [UInt8]) -> Result? {
        // Walk the marker segments to the first start-of-frame (SOF0…SOF15 but DHT, JPG, DAC).
        var at = 2
        while at + 4 <= b.count {
            guard b[at] == 0xFF else { return nil }
            let marker = b[at + 1]
            if marker == 0xFF { at += 1; continue }                 // fill byte
            if marker == 0xD8 || (0xD0...0xD7).contains(marker) || marker == 0x01 { at += 2; continue }
            guard let length = bigEndian16(b, at + 2), length >= 2 else { return nil }
            let isFrame = (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
            if isFrame {
                guard let height = bigEndian16(b, at + 5), let width = bigEndian16(b, at + 7) else { return nil }
                return Result(type: .jpeg, width: width, height: height)
            }
            if marker == 0xD9 || marker == 0xDA { return nil }     // end or scan before any frame
            at += 2 + length
        }
        return nil
    }

    private static func webp(_ b: [UInt8]) -> Result? {
        guard b.count >= 30 else { return nil }
        let chunk = String(decoding: b[12..<16], as: UTF8.self)
        switch chunk {
        case "VP8 ":
            // Key frame start code 9d 01 2a, then 14-bit width and height.
            guard Array(b[23..<26]) == [0x9D, 0x01, 0x2A],
                  let width = littleEndian16(b, 26), let height = littleEndian16(b, 28) else { return nil }
            return Result(type: .webp, width: width & 0x3FFF, height: height & 0x3FFF)
        case "VP8L":
            guard b[20] == 0x2F else { return nil }
            let bits = Int(b[21]) | Int(b[22]) << 8 | Int(b[23]) << 16 | Int(b[24]) << 24
            return Result(type: .webp, width: (bits & 0x3FFF) + 1, height: ((bits >> 14) & 0x3FFF) + 1)
        case "VP8X":
            guard let width = littleEndian24(b, 24), let height = littleEndian24(b, 27) else { return nil }
            return Result(type: .webp, width: width + 1, height: height + 1)
        default:
            return nil
        }
    }
}
