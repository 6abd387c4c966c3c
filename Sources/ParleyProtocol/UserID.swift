/// A user's numeric id. It travels as a JSON string, since ids may exceed 2^53 and
/// JavaScript numbers are doubles.
public struct UserID: RawRepresentable, Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// The id.
    public let rawValue: Int64

    public init(rawValue: Int64) { self.rawValue = rawValue }
    public init(_ rawValue: Int64) { self.rawValue = rawValue }

    /// Parses the decimal string form; nil for anything else.
    public init?(string: some StringProtocol) {
        guard let value = Int64(string), value > 0 else { return nil }
        rawValue = value
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self), let id = UserID(string: text) {
            self = id
        } else if let number = try? container.decode(Int64.self), number > 0 {
            rawValue = number
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "expected a user id as a decimal string")
        }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(String(rawValue))
    }

    public static func < (a: UserID, b: UserID) -> Bool { a.rawValue < b.rawValue }
    public var description: String { String(rawValue) }
}
