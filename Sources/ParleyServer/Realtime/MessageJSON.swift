import ParleyProtocol

/// A hand-written JSON encoder for the one payload on the hot path: a text `Message`, carried
/// by the `message.send` response and the `message.new` event. Foundation's `JSONEncoder`
/// spent a large share of the server's time on these frames. A send writes the message's JSON
/// once: the hub writes it for the event and hands it to the sender's connection for the
/// response (`ClientSession.keepJSON`).
///
/// The output means the same as `JSONEncoder`'s (same keys, absent optionals left out, ids as
/// decimal strings, the same string escapes, `/` not escaped); tests decode both and compare.
/// Messages with an image or a system notice are left to `JSONEncoder` (`encode` returns nil).
enum MessageJSON {
    /// The JSON object for `message`, or nil if it is not a plain text message.
    static func encode(_ message: Message) -> String? {
        json(message).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The JSON object for `message` as UTF-8, or nil if it is not a plain text message.
    static func json(_ message: Message) -> [UInt8]? {
        var out: [UInt8] = []
        return append(message, to: &out) ? out : nil
    }

    /// Appends the JSON object for `message` to `out`; false (and nothing appended) if it is
    /// not a plain text message.
    static func append(_ message: Message, to out: inout [UInt8]) -> Bool {
        guard message.image == nil, message.system == nil else { return false }
        out.reserveCapacity(out.count + 160 + message.id.utf8.count + (message.text?.utf8.count ?? 0)
                            + (message.clientId?.utf8.count ?? 0))
        appendLiteral(#"{"id":"#, to: &out)
        appendString(message.id, to: &out)
        appendLiteral(#","conversationId":""#, to: &out)
        appendDecimal(message.conversationId.rawValue, to: &out)
        appendLiteral(#"","seq":"#, to: &out)
        appendDecimal(message.seq, to: &out)
        if let sender = message.sender {
            appendLiteral(#","sender":""#, to: &out)
            appendDecimal(sender.rawValue, to: &out)
            out.append(UInt8(ascii: "\""))
        }
        if let clientId = message.clientId {
            appendLiteral(#","clientId":"#, to: &out)
            appendString(clientId, to: &out)
        }
        appendLiteral(#","kind":"#, to: &out)
        appendString(message.kind.rawValue, to: &out)
        if let text = message.text {
            appendLiteral(#","text":"#, to: &out)
            appendString(text, to: &out)
        }
        appendLiteral(#","createdAt":"#, to: &out)
        appendDecimal(message.createdAt, to: &out)
        out.append(UInt8(ascii: "}"))
        return true
    }

    /// Appends a literal's bytes (without walking a `String.UTF8View` generically).
    static func appendLiteral(_ literal: StaticString, to out: inout [UInt8]) {
        out.append(contentsOf: UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    /// The decimal digits of `value`, written without making a `String` first.
    static func appendDecimal(_ value: Int64, to out: inout [UInt8]) {
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
    static func appendString(_ string: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { bytes in
            // Runs of bytes that need no escape are copied whole.
            var runStart = 0
            for index in bytes.indices {
                let byte = bytes[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                runStart = index + 1
                appendEscape(byte, to: &out)
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
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
