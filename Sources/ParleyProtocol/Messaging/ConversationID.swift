/// A conversation's id (1:1, group or room). Travels as a decimal string, like `UserID`.
public struct ConversationID: RawRepresentable, Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
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
        if let text = try? container.decode(String.self), let id = ConversationID(string: text) {
            self = id
        } else if let number = try? container.decode(Int64.self), number > 0 {
            rawValue = number
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "expected a conversation id as a decimal string")
        }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(String(rawValue))
    }

    public static func < (a: ConversationID, b: ConversationID) -> Bool { a.rawValue < b.rawValue }
    public var description: String { String(rawValue) }
}

/// What kind of conversation: a 1:1 chat between friends, a group with lasting
/// membership, or a room that people enter and leave.
public enum ConversationKind: String, Codable, Sendable, CaseIterable {
    case user, group, room
}
