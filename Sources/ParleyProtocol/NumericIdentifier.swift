/// An id that is a positive 64-bit number on the server and a decimal string on the wire
/// (ids may exceed 2^53, which JavaScript numbers cannot hold). Conforming types get parsing,
/// coding, ordering and printing from here.
public protocol NumericIdentifier: RawRepresentable, Hashable, Comparable, Sendable, Codable, CustomStringConvertible
where RawValue == Int64 {
    init(rawValue: Int64)
}

extension NumericIdentifier {
    /// Wraps a raw id.
    public init(_ rawValue: Int64) { self.init(rawValue: rawValue) }

    /// Parses the decimal string form; nil for anything else, zero and negatives included.
    public init?(string: some StringProtocol) {
        guard let value = Int64(string), value > 0 else { return nil }
        self.init(rawValue: value)
    }

    /// Reads the decimal string (numbers are accepted too, for lenient clients).
    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self), let id = Self(string: text) {
            self = id
        } else if let number = try? container.decode(Int64.self), number > 0 {
            self.init(rawValue: number)
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "expected an id as a decimal string")
        }
    }

    /// Writes the decimal string.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(String(rawValue))
    }

    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
    public var description: String { String(rawValue) }
}
