import Foundation
import ParleyProtocol

/// A hand-written reader for the one request on the hot path, `message.send`: Foundation's
/// `JSONDecoder` spent about 50,000 instructions on each of these frames, a fifth of the
/// server's work per message.
///
/// It accepts only the plain shape: one object with `id` (an integer or a string), `op`
/// (`"message.send"`) and `data` (an object of `conversationId`, `clientId`, `kind`, and
/// optionally `text` and `mediaId`, strings or null), in any order, with any whitespace and
/// any string escapes. Anything else (another operation, an unknown or repeated key, a
/// missing field, a value of another type, a number where the reader expects a string)
/// returns nil, and the caller decodes the frame with `JSONDecoder` as before: that also
/// gives every error its usual wording. Tests compare both readers on the same frames.
enum SendFrameReader {
    /// The frame as `JSONDecoder` would decode it into an `IncomingFrame`, or nil.
    static func read(_ frame: Data) -> IncomingFrame? {
        frame.withUnsafeBytes { raw -> IncomingFrame? in
            var reader = Reader(bytes: raw.bindMemory(to: UInt8.self))
            return reader.frame()
        }
    }

    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        init(bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
        }

        mutating func frame() -> IncomingFrame? {
            var id: RequestID?
            var op: String?
            var parameters: SendParameters?
            let complete = object { key, reader in
                switch key {
                case "id" where id == nil:
                    id = reader.requestID()
                    return id != nil
                case "op" where op == nil:
                    guard let name = reader.plainString(), "message.send" ~= name else { return false }
                    op = "message.send"
                    return true
                case "data" where parameters == nil:
                    parameters = reader.sendParameters()
                    return parameters != nil
                default:
                    return false
                }
            }
            skipWhitespace()
            guard complete, index == bytes.count, let id, let op, let parameters else { return nil }
            return IncomingFrame(id: id, op: op, parameters: .success(parameters))
        }

        mutating func sendParameters() -> SendParameters? {
            var conversation: ConversationID?
            var clientID: String?
            var kind: MessageKind?
            var text: String??
            var mediaID: String??
            let complete = object { key, reader in
                switch key {
                case "conversationId" where conversation == nil:
                    conversation = reader.plainString()?.positiveInteger.map(ConversationID.init(rawValue:))
                    return conversation != nil
                case "clientId" where clientID == nil:
                    clientID = reader.string()
                    return clientID != nil
                case "kind" where kind == nil:
                    switch reader.plainString() {
                    case "text"?: kind = .text
                    case "image"?: kind = .image
                    case "system"?: kind = .system
                    default: return false
                    }
                    return true
                case "text" where text == nil:
                    text = reader.optionalString()
                    return text != nil
                case "mediaId" where mediaID == nil:
                    mediaID = reader.optionalString()
                    return mediaID != nil
                default:
                    return false
                }
            }
            guard complete, let conversation, let clientID, let kind else { return nil }
            return SendParameters(conversationId: conversation, clientId: clientID, kind: kind, text: text ?? nil,
                                  mediaId: mediaID ?? nil)
        }

        /// Reads `{ "key": value, … }`, handing each key to `member`, which reads the value and
        /// says whether it was acceptable. False for anything malformed or refused, and for a
        /// key with an escape (no key of the plain shape needs one).
        mutating func object(_ member: (PlainString, inout Reader) -> Bool) -> Bool {
            skipWhitespace()
            guard take(UInt8(ascii: "{")) else { return false }
            skipWhitespace()
            if take(UInt8(ascii: "}")) { return true }
            while true {
                skipWhitespace()
                guard let key = plainString() else { return false }
                skipWhitespace()
                guard take(UInt8(ascii: ":")) else { return false }
                skipWhitespace()
                guard member(key, &self) else { return false }
                skipWhitespace()
                if take(UInt8(ascii: ",")) { continue }
                return take(UInt8(ascii: "}"))
            }
        }

        /// A request id: an integer that fits in `Int64`, or a string.
        mutating func requestID() -> RequestID? {
            if index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
                return string().map(RequestID.string)
            }
            return integer().map(RequestID.number)
        }

        /// An integer without fraction or exponent (those go to `JSONDecoder`).
        mutating func integer() -> Int64? {
            let start = index
            var negative = false
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") {
                negative = true
                index += 1
            }
            let digits = index
            var value: Int64 = 0
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                let digit = Int64(bytes[index] - UInt8(ascii: "0"))
                let (shifted, overflow1) = value.multipliedReportingOverflow(by: 10)
                let (next, overflow2) = negative ? shifted.subtractingReportingOverflow(digit) : shifted.addingReportingOverflow(digit)
                guard !overflow1, !overflow2 else { return nil }
                value = next
                index += 1
            }
            let count = index - digits
            // JSON allows no leading zeros; a fraction or exponent is not an integer here.
            guard count > 0, !(count > 1 && bytes[digits] == UInt8(ascii: "0")) else { return nil }
            if index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"):
                    index = start
                    return nil
                default:
                    break
                }
            }
            return value
        }

        /// A string without escapes, as its bytes in the frame (no `String` made); nil for
        /// anything else.
        mutating func plainString() -> PlainString? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = index
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    index += 1
                    return PlainString(bytes: UnsafeBufferPointer(rebasing: bytes[start..<(index - 1)]))
                }
                guard byte != UInt8(ascii: "\\"), byte >= 0x20 else { return nil }
                index += 1
            }
            return nil
        }

        /// A string, or null (`.some(nil)`); nil when it is neither.
        mutating func optionalString() -> String?? {
            if bytes.count - index >= 4, bytes[index] == UInt8(ascii: "n"), bytes[index + 1] == UInt8(ascii: "u"),
               bytes[index + 2] == UInt8(ascii: "l"), bytes[index + 3] == UInt8(ascii: "l") {
                index += 4
                return .some(nil)
            }
            return string().map { .some($0) }
        }

        /// A JSON string with its escapes resolved; nil for anything else or a malformed one.
        mutating func string() -> String? {
            let quote = index
            // The common case: no escapes, one copy.
            if let plain = plainString() { return String(decoding: plain.bytes, as: UTF8.self) }
            // Stopped at an escape, or at what the loop below refuses (a control character,
            // the end); nothing read at all if there was no opening quote.
            guard index > quote else { return nil }
            var unescaped = Array(bytes[(quote + 1)..<index])
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                switch byte {
                case UInt8(ascii: "\""):
                    return String(decoding: unescaped, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    guard appendEscape(to: &unescaped) else { return nil }
                case 0..<0x20:
                    return nil
                default:
                    unescaped.append(byte)
                }
            }
            return nil
        }

        /// The escape after a backslash, as UTF-8; false for one JSON does not have, or a
        /// lone surrogate (left to `JSONDecoder`'s judgement).
        mutating func appendEscape(to out: inout [UInt8]) -> Bool {
            guard index < bytes.count else { return false }
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(byte)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                guard let unit = hexUnit() else { return false }
                var scalar: Unicode.Scalar?
                if UTF16.isLeadSurrogate(unit) {
                    guard bytes.count - index >= 2, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                        return false
                    }
                    index += 2
                    guard let trail = hexUnit(), UTF16.isTrailSurrogate(trail) else { return false }
                    scalar = Unicode.Scalar(0x10000 + (UInt32(unit - 0xD800) << 10) + UInt32(trail - 0xDC00))
                } else if !UTF16.isTrailSurrogate(unit) {
                    scalar = Unicode.Scalar(unit)
                }
                guard let scalar else { return false }
                out.append(contentsOf: String(Character(scalar)).utf8)
            default:
                return false
            }
            return true
        }

        /// Four hex digits.
        mutating func hexUnit() -> UInt16? {
            guard bytes.count - index >= 4 else { return nil }
            var value: UInt16 = 0
            for _ in 0..<4 {
                let byte = bytes[index]
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: return nil
                }
                value = value << 4 | UInt16(digit)
                index += 1
            }
            return value
        }

        mutating func take(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        mutating func skipWhitespace() {
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: " "), 0x0A, 0x0D, 0x09: index += 1
                default: return
                }
            }
        }
    }

    /// The bytes of a string literal in the frame that has no escapes, compared with the
    /// names the reader expects without making a `String`.
    private struct PlainString {
        let bytes: UnsafeBufferPointer<UInt8>

        /// The string read as `Int64(_:)` reads it (a sign, then decimal digits) if that is
        /// above zero: what `ConversationID(string:)` accepts. Nil otherwise.
        var positiveInteger: Int64? {
            var digits = bytes[...]
            var negative = false
            if let sign = digits.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                negative = sign == UInt8(ascii: "-")
                digits = digits.dropFirst()
            }
            guard !negative, !digits.isEmpty else { return nil }
            var value: Int64 = 0
            for byte in digits {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                let (shifted, overflow1) = value.multipliedReportingOverflow(by: 10)
                let (next, overflow2) = shifted.addingReportingOverflow(Int64(byte - UInt8(ascii: "0")))
                guard !overflow1, !overflow2 else { return nil }
                value = next
            }
            return value > 0 ? value : nil
        }

        static func ~= (name: StaticString, string: PlainString) -> Bool {
            guard string.bytes.count == name.utf8CodeUnitCount else { return false }
            return string.bytes.isEmpty || memcmp(string.bytes.baseAddress!, name.utf8Start, string.bytes.count) == 0
        }
    }
}
