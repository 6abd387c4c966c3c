import ParleyNet

/// `percent-decoding`: `PercentDecoding` and `Router.match` on arbitrary request targets.
///
/// Invariants: a decoded segment or component never holds NUL; text without `%`, `+` or
/// NUL decodes to itself; percent-encoding any string and decoding it gives the string
/// back; `parseQuery` yields one pair per non-empty `&` piece; the router (with the
/// server's route patterns) answers exactly what matching each pattern on its own says:
/// found when some matching pattern has the method (with the right parameters), 405 with
/// the union of methods when only others do, 404 otherwise.
enum PercentDecodingHarness {
    static func run(_ bytes: [UInt8]) throws(InvariantFailure) {
        // The decoder turns the request target into a `String` the same lenient way.
        let uri = String(decoding: bytes, as: UTF8.self)
        let head = HTTPRequestHead(method: .get, uri: uri)

        for (text, plusAsSpace) in [(uri, false), (uri, true)] {
            try checkDecoding(text, plusAsSpace: plusAsSpace)
        }
        if let query = head.query, let pairs = PercentDecoding.parseQuery(query) {
            let pieces = query.split(separator: "&", omittingEmptySubsequences: true).count
            try InvariantFailure.expect(pairs.count == pieces, "\(pairs.count) pairs from \(pieces) pieces of \(query.debugDescription)")
        }
        for method in [HTTPMethod.get, .head, .post, .delete, HTTPMethod(rawValue: "BREW")] {
            try RouteOracle.check(method: method, path: head.path)
        }
    }

    static func checkDecoding(_ text: String, plusAsSpace: Bool) throws(InvariantFailure) {
        let decoded = PercentDecoding.decode(text, plusAsSpace: plusAsSpace)
        if let decoded {
            try InvariantFailure.expect(!decoded.utf8.contains(0), "NUL decoded from \(text.debugDescription)")
        }
        let special: Set<UInt8> = plusAsSpace ? [UInt8(ascii: "%"), UInt8(ascii: "+"), 0] : [UInt8(ascii: "%"), 0]
        if !text.utf8.contains(where: special.contains) {
            try InvariantFailure.expect(decoded == text, "\(text.debugDescription) decoded to \(decoded.debugDescription)")
        }
        // Encoding every byte but unreserved ones must round-trip, for anything without NUL.
        let plain = String(decoding: text.utf8.filter { $0 != 0 }, as: UTF8.self)
        let encoded = percentEncode(plain)
        let back = plusAsSpace ? PercentDecoding.decodeQueryComponent(encoded) : PercentDecoding.decodePathSegment(encoded)
        try InvariantFailure.expect(back == plain, "\(plain.debugDescription) encoded as \(encoded) decoded to \(back.debugDescription)")
    }

    /// RFC 3986 percent-encoding of everything but the unreserved characters, written
    /// here rather than taken from Foundation so the check depends on nothing else.
    static func percentEncode(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.append(byte)
            default:
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
