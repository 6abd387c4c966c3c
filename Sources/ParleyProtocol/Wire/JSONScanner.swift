import Glibc

/// A reader of JSON bytes written by hand for the frames on the hot path, where Foundation's
/// `JSONDecoder` cost a fifth of the server's work per message. It reads only what it is
/// sure of and says nil for anything else (escapes in keys, repeated keys, numbers with a
/// fraction where an integer is wanted, malformed input): callers then fall back to
/// `JSONDecoder`, which also gives every error its usual wording. Tests compare both on the
/// same frames, and the `json-frames` fuzz target runs both.
struct JSONScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// Whether only white space is left.
    mutating func atEnd() -> Bool {
        skipWhitespace()
        return index == bytes.count
    }

    /// Reads `{ "key": value, … }`, handing each key to `member`, which reads the value and
    /// says whether it was acceptable. False for anything malformed or refused, and for a
    /// key with an escape (no key of the plain shape needs one).
    mutating func object(_ member: (PlainString, inout JSONScanner) -> Bool) -> Bool {
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

    /// Reads `[ value, … ]`, handing each element to `element`, which reads it and says
    /// whether it was acceptable. False for anything malformed or refused.
    mutating func array(_ element: (inout JSONScanner) -> Bool) -> Bool {
        skipWhitespace()
        guard take(UInt8(ascii: "[")) else { return false }
        skipWhitespace()
        if take(UInt8(ascii: "]")) { return true }
        while true {
            skipWhitespace()
            guard element(&self) else { return false }
            skipWhitespace()
            if take(UInt8(ascii: ",")) { continue }
            return take(UInt8(ascii: "]"))
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
        // Stops at the closing quote, or at an escape, a control character or the end (nil).
        index = JSONPlainBytes.runEnd(bytes, from: start)
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
        index += 1
        return PlainString(bytes: UnsafeBufferPointer(rebasing: bytes[start..<(index - 1)]))
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

    /// Skips one JSON value of any kind, checking its shape (strings, numbers, literals,
    /// nested objects and arrays); false for a malformed one.
    mutating func skipValue(depth: Int = 0) -> Bool {
        guard depth < 64 else { return false }
        skipWhitespace()
        guard index < bytes.count else { return false }
        switch bytes[index] {
        case UInt8(ascii: "{"):
            return object { _, scanner in scanner.skipValue(depth: depth + 1) }
        case UInt8(ascii: "["):
            index += 1
            skipWhitespace()
            if take(UInt8(ascii: "]")) { return true }
            while true {
                guard skipValue(depth: depth + 1) else { return false }
                skipWhitespace()
                if take(UInt8(ascii: ",")) { continue }
                return take(UInt8(ascii: "]"))
            }
        case UInt8(ascii: "\""):
            // Most strings hold no escape: passed over without being made a `String` (the
            // envelope's pass skips `data`, text included, before the parameters are read).
            let quote = index
            if plainString() != nil { return true }
            index = quote
            return string() != nil
        case UInt8(ascii: "t"): return literal("true")
        case UInt8(ascii: "f"): return literal("false")
        case UInt8(ascii: "n"): return literal("null")
        default:
            return number()
        }
    }

    /// `true`, `false` or `null`.
    private mutating func literal(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard bytes.count - index >= count, memcmp(bytes.baseAddress! + index, word.utf8Start, count) == 0 else { return false }
        index += count
        return true
    }

    /// Any JSON number (sign, digits, fraction, exponent).
    private mutating func number() -> Bool {
        _ = take(UInt8(ascii: "-"))
        let digits = index
        while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") { index += 1 }
        guard index > digits, !(index - digits > 1 && bytes[digits] == UInt8(ascii: "0")) else { return false }
        if take(UInt8(ascii: ".")) {
            let fraction = index
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") { index += 1 }
            guard index > fraction else { return false }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if !take(UInt8(ascii: "+")) { _ = take(UInt8(ascii: "-")) }
            let exponent = index
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") { index += 1 }
            guard index > exponent else { return false }
        }
        return true
    }
}

/// The bytes of a string literal in the frame that has no escapes, compared with the
/// names the reader expects without making a `String`.
struct PlainString {
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

extension JSONScanner {
    /// `null`, if that is what comes next.
    mutating func takeNull() -> Bool {
        skipWhitespace()
        guard bytes.count - index >= 4, bytes[index] == UInt8(ascii: "n"), bytes[index + 1] == UInt8(ascii: "u"),
              bytes[index + 2] == UInt8(ascii: "l"), bytes[index + 3] == UInt8(ascii: "l") else { return false }
        index += 4
        return true
    }

    /// `true` or `false`; nil for anything else.
    mutating func bool() -> Bool? {
        if bytes.count - index >= 4, bytes[index] == UInt8(ascii: "t"), bytes[index + 1] == UInt8(ascii: "r"),
           bytes[index + 2] == UInt8(ascii: "u"), bytes[index + 3] == UInt8(ascii: "e") {
            index += 4
            return true
        }
        if bytes.count - index >= 5, bytes[index] == UInt8(ascii: "f"), bytes[index + 1] == UInt8(ascii: "a"),
           bytes[index + 2] == UInt8(ascii: "l"), bytes[index + 3] == UInt8(ascii: "s"), bytes[index + 4] == UInt8(ascii: "e") {
            index += 5
            return false
        }
        return nil
    }
}
