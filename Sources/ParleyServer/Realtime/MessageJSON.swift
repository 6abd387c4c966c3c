import ParleyProtocol

/// A hand-written JSON encoder for the one payload on the hot path: a text `Message`, sent
/// twice per 1:1 message (the `message.send` response and the `message.new` event). Foundation's
/// `JSONEncoder` spent a large share of the server's time on these frames.
///
/// The output means the same as `JSONEncoder`'s (same keys, absent optionals left out, ids as
/// decimal strings, the same string escapes, `/` not escaped); tests decode both and compare.
/// Messages with an image or a system notice are left to `JSONEncoder` (`encode` returns nil).
enum MessageJSON {
    /// The JSON object for `message`, or nil if it is not a plain text message.
    static func encode(_ message: Message) -> String? {
        guard message.image == nil, message.system == nil else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(160 + (message.text?.utf8.count ?? 0) + (message.clientId?.utf8.count ?? 0))
        out.append(contentsOf: #"{"id":"#.utf8)
        appendString(message.id, to: &out)
        out.append(contentsOf: #","conversationId":""#.utf8)
        appendDecimal(message.conversationId.rawValue, to: &out)
        out.append(contentsOf: #"","seq":"#.utf8)
        appendDecimal(message.seq, to: &out)
        if let sender = message.sender {
            out.append(contentsOf: #","sender":""#.utf8)
            appendDecimal(sender.rawValue, to: &out)
            out.append(UInt8(ascii: "\""))
        }
        if let clientId = message.clientId {
            out.append(contentsOf: #","clientId":"#.utf8)
            appendString(clientId, to: &out)
        }
        out.append(contentsOf: #","kind":"#.utf8)
        appendString(message.kind.rawValue, to: &out)
        if let text = message.text {
            out.append(contentsOf: #","text":"#.utf8)
            appendString(text, to: &out)
        }
        out.append(contentsOf: #","createdAt":"#.utf8)
        appendDecimal(message.createdAt, to: &out)
        out.append(UInt8(ascii: "}"))
        return String(decoding: out, as: UTF8.self)
    }

    private static func appendDecimal(_ value: Int64, to out: inout [UInt8]) {
        out.append(contentsOf: String(value).utf8)
    }

    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)

    /// A JSON string literal: `"` and `\` escaped, control characters as `\n`-style or
    /// `\u00XX` escapes, everything else (including non-ASCII) as its UTF-8 bytes.
    static func appendString(_ string: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x08: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x0C: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0..<0x20:
                out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                        hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
