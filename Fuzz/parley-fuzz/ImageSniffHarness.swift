import ParleyCore

/// `image-sniff`: `ImageSniffer` on arbitrary uploads.
///
/// Invariants: it never crashes; a result has both dimensions in 1…`maxDimension` and a
/// type that matches the file's signature; the answer depends only on the header, so
/// bytes appended after a recognized image do not change it.
enum ImageSniffHarness {
    static func run(_ bytes: [UInt8]) throws(InvariantFailure) {
        guard let result = ImageSniffer.sniff(bytes) else { return }
        let range = 1...ImageSniffer.maxDimension
        try InvariantFailure.expect(range.contains(result.width) && range.contains(result.height),
                                    "dimensions \(result.width)×\(result.height)")
        try InvariantFailure.expect(signature(of: bytes) == result.type, "sniffed \(result.type) from a \(signature(of: bytes).map { "\($0)" } ?? "unknown") signature")
        for tail: [UInt8] in [[0], [0xFF, 0xD9], Array(repeating: 0xFF, count: 64)] {
            let extended = ImageSniffer.sniff(bytes + tail)
            try InvariantFailure.expect(extended == result, "with \(tail.count) more bytes the answer became \(String(describing: extended))")
        }
    }

    /// The format the first bytes announce, written out independently of the sniffer.
    static func signature(of bytes: [UInt8]) -> ImageType? {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if bytes.starts(with: Array("GIF8".utf8)), bytes.count >= 6, bytes[4] == UInt8(ascii: "7") || bytes[4] == UInt8(ascii: "9"),
           bytes[5] == UInt8(ascii: "a") {
            return .gif
        }
        if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)), bytes[8..<12].elementsEqual("WEBP".utf8) { return .webp }
        return nil
    }
}
