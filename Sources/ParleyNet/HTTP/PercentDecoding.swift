/// Percent-decoding for request targets (RFC 3986 §2.1), strict about what it accepts.
///
/// Every function returns `nil` rather than guessing when the input is malformed: a `%`
/// without two hex digits after it, a NUL byte (decoded or not; C file APIs would cut the
/// string there), or bytes that are not UTF-8 once decoded.
public enum PercentDecoding {
    /// Decodes one path segment. `+` stays `+` (it means a space only in queries), and an
    /// encoded `/` (`%2F`) comes out as `/`: split the path into segments before decoding.
    public static func decodePathSegment(_ segment: some StringProtocol) -> String? {
        decode(segment, plusAsSpace: false)
    }

    /// Decodes a query component (`application/x-www-form-urlencoded`): `+` is a space.
    public static func decodeQueryComponent(_ component: some StringProtocol) -> String? {
        decode(component, plusAsSpace: true)
    }

    /// Splits a query string (without the `?`) into decoded name/value pairs, in order.
    /// Names may repeat; a pair without `=` has an empty value; empty pairs (`a=1&&b=2`)
    /// are skipped. Returns `nil` if any part is malformed.
    public static func parseQuery(_ query: some StringProtocol) -> [(name: String, value: String)]? {
        var pairs: [(name: String, value: String)] = []
        for piece in query.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = piece.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = decodeQueryComponent(parts[0]),
                  let value = parts.count > 1 ? decodeQueryComponent(parts[1]) : "" else { return nil }
            pairs.append((name: name, value: value))
        }
        return pairs
    }

    /// Decodes `%XX` escapes (and `+` as a space when `plusAsSpace`).
    public static func decode(_ text: some StringProtocol, plusAsSpace: Bool) -> String? {
        let utf8 = text.utf8
        // Most segments have nothing to decode: skip the copy.
        if !utf8.contains(where: { $0 == UInt8(ascii: "%") || $0 == 0 || (plusAsSpace && $0 == UInt8(ascii: "+")) }) {
            return String(text)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var index = utf8.startIndex
        while index != utf8.endIndex {
            let byte = utf8[index]
            index = utf8.index(after: index)
            switch byte {
            case UInt8(ascii: "%"):
                guard index != utf8.endIndex, let high = hexValue(utf8[index]) else { return nil }
                index = utf8.index(after: index)
                guard index != utf8.endIndex, let low = hexValue(utf8[index]) else { return nil }
                index = utf8.index(after: index)
                let decoded = high << 4 | low
                guard decoded != 0 else { return nil }
                bytes.append(decoded)
            case UInt8(ascii: "+") where plusAsSpace:
                bytes.append(UInt8(ascii: " "))
            case 0:
                return nil
            default:
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
