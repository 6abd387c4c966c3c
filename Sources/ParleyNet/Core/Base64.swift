/// Base64 with the standard alphabet and `=` padding (RFC 4648 §4).
public enum Base64 {
    private static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// The padded Base64 text of `bytes`.
    public static func encode(_ bytes: some Collection<UInt8>) -> String {
        let done: String? = bytes.withContiguousStorageIfAvailable { encode(UnsafeRawBufferPointer($0)) }
        return done ?? Array(bytes).withUnsafeBytes { encode($0) }
    }

    /// The padded Base64 text of `bytes`.
    public static func encode(_ bytes: UnsafeRawBufferPointer) -> String {
        let outputCount = (bytes.count + 2) / 3 * 4
        return String(unsafeUninitializedCapacity: outputCount) { out in
            var i = 0, o = 0
            while i + 3 <= bytes.count {
                let group = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
                out[o] = alphabet[Int(group >> 18 & 0x3F)]
                out[o + 1] = alphabet[Int(group >> 12 & 0x3F)]
                out[o + 2] = alphabet[Int(group >> 6 & 0x3F)]
                out[o + 3] = alphabet[Int(group & 0x3F)]
                i += 3
                o += 4
            }
            let rest = bytes.count - i
            if rest > 0 {
                let group = UInt32(bytes[i]) << 16 | (rest == 2 ? UInt32(bytes[i + 1]) << 8 : 0)
                out[o] = alphabet[Int(group >> 18 & 0x3F)]
                out[o + 1] = alphabet[Int(group >> 12 & 0x3F)]
                out[o + 2] = rest == 2 ? alphabet[Int(group >> 6 & 0x3F)] : UInt8(ascii: "=")
                out[o + 3] = UInt8(ascii: "=")
                o += 4
            }
            return o
        }
    }

    /// The bytes `text` encodes, or nil unless it is canonical padded Base64: only alphabet
    /// characters, a length that is a multiple of 4, `=` only as the last one or two
    /// characters, and zero unused bits (so every byte string has exactly one accepted text,
    /// which keeps comparisons of keys and tokens honest).
    public static func decode(_ text: some StringProtocol) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count % 4 == 0 else { return nil }
        var output = [UInt8]()
        output.reserveCapacity(utf8.count / 4 * 3)
        var i = 0
        while i < utf8.count {
            let isLast = i + 4 == utf8.count
            let padding = isLast ? (utf8[i + 3] == UInt8(ascii: "=") ? (utf8[i + 2] == UInt8(ascii: "=") ? 2 : 1) : 0) : 0
            var group: UInt32 = 0
            for j in 0..<4 {
                let value: UInt32
                if j >= 4 - padding {
                    value = 0
                } else if let decoded = sextet(utf8[i + j]) {
                    value = UInt32(decoded)
                } else {
                    return nil  // a foreign character, or `=` where padding cannot be
                }
                group = group << 6 | value
            }
            output.append(UInt8(truncatingIfNeeded: group >> 16))
            switch padding {
            case 0:
                output.append(UInt8(truncatingIfNeeded: group >> 8))
                output.append(UInt8(truncatingIfNeeded: group))
            case 1:
                guard group & 0xFF == 0 else { return nil }
                output.append(UInt8(truncatingIfNeeded: group >> 8))
            default:
                guard group & 0xFFFF == 0 else { return nil }
            }
            i += 4
        }
        return output
    }

    private static func sextet(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): character - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): character - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"): 62
        case UInt8(ascii: "/"): 63
        default: nil
        }
    }
}
