/// Writes JSON by hand for the frames on the hot path (a text message, response and event
/// envelopes), where Foundation's `JSONEncoder` cost a large share of the server's time. The
/// output means what `JSONEncoder` writes with `.withoutEscapingSlashes`; tests decode both
/// and compare.
public enum JSONWriter {
    /// Appends a literal's bytes (without walking a `String.UTF8View` generically).
    public static func appendLiteral(_ literal: StaticString, to out: inout [UInt8]) {
        out.append(contentsOf: UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    /// The decimal digits of `value`, written without making a `String` first.
    public static func appendDecimal(_ value: Int64, to out: inout [UInt8]) {
        // Counted down from the magnitude, as UInt64 so that Int64.min has one too.
        var magnitude = value.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0) // 24 bytes: room for 20 digits
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                count += 1
                buffer[buffer.count - count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            if value < 0 { out.append(UInt8(ascii: "-")) }
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[(buffer.count - count)...]))
        }
    }

    /// The bytes `appendDecimal` writes for `value` (for `JSONCursor`, which is told sizes
    /// beforehand).
    public static func decimalCount(_ value: Int64) -> Int {
        var magnitude = value.magnitude
        var count = value < 0 ? 2 : 1
        while magnitude >= 10 {
            magnitude /= 10
            count += 1
        }
        return count
    }

    /// The bytes `appendString` writes for `string`, quotes included: one pass that stops
    /// only where an escape goes (for `JSONCursor`, which is told sizes beforehand).
    public static func stringCount(_ string: String) -> Int {
        // Read in place where the string is contiguous (native or small), with no copy.
        if let count = string.utf8.withContiguousStorageIfAvailable(stringCount(utf8:)) { return count }
        var string = string
        return string.withUTF8(stringCount(utf8:))
    }

    private static func stringCount(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var count = bytes.count + 2
        var index = JSONPlainBytes.runEnd(bytes, from: 0)
        while index < bytes.count {
            count += escape(bytes[index]).count - 1
            index = JSONPlainBytes.runEnd(bytes, from: index + 1)
        }
        return count
    }

    /// A JSON string literal: `"` and `\` escaped, control characters as `\n`-style or
    /// `\u00XX` escapes, everything else (including non-ASCII) as its UTF-8 bytes.
    public static func appendString(_ string: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { bytes in
            // Runs of bytes that need no escape are found eight at a time and copied whole.
            var runStart = 0
            while true {
                let end = JSONPlainBytes.runEnd(bytes, from: runStart)
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<end]))
                guard end < bytes.count else { break }
                let escape = escape(bytes[end])
                for index in 0..<escape.count { out.append(escape.byte(index)) }
                runStart = end + 1
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// The escape written for a byte that `JSONPlainBytes` says needs one: the one table of
    /// escapes, for `appendString` and `JSONCursor.string` alike.
    static func escape(_ byte: UInt8) -> Escape {
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): Escape(second: byte)
        case 0x0A: Escape(second: UInt8(ascii: "n"))
        case 0x0D: Escape(second: UInt8(ascii: "r"))
        case 0x09: Escape(second: UInt8(ascii: "t"))
        case 0x08: Escape(second: UInt8(ascii: "b"))
        case 0x0C: Escape(second: UInt8(ascii: "f"))
        default: Escape(unicode: byte)
        }
    }

    /// An escape's bytes (2 for `\n`-style, 6 for `\u00XX`), packed first byte lowest.
    struct Escape {
        let packed: UInt64
        let count: Int

        init(second: UInt8) {
            packed = UInt64(UInt8(ascii: "\\")) | UInt64(second) << 8
            count = 2
        }

        init(unicode byte: UInt8) {
            // `\u00`, first byte lowest, then the two hex digits.
            let prefix = UInt64(UInt8(ascii: "\\")) | UInt64(UInt8(ascii: "u")) << 8
                | UInt64(UInt8(ascii: "0")) << 16 | UInt64(UInt8(ascii: "0")) << 24
            packed = prefix | UInt64(JSONWriter.hexDigit(byte >> 4)) << 32 | UInt64(JSONWriter.hexDigit(byte & 0x0F)) << 40
            count = 6
        }

        /// The escape's byte at `index` (below `count`).
        func byte(_ index: Int) -> UInt8 { UInt8(truncatingIfNeeded: packed >> (8 * UInt64(index))) }
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }
}
