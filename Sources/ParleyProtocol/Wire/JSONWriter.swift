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

    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)

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
                appendEscape(bytes[end], to: &out)
                runStart = end + 1
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    private static func appendEscape(_ byte: UInt8, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): out.append(byte)
        case 0x0A: out.append(UInt8(ascii: "n"))
        case 0x0D: out.append(UInt8(ascii: "r"))
        case 0x09: out.append(UInt8(ascii: "t"))
        case 0x08: out.append(UInt8(ascii: "b"))
        case 0x0C: out.append(UInt8(ascii: "f"))
        default:
            out.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                    hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]])
        }
    }
}
