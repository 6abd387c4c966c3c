/// A conversation's id (1:1, group or room); a decimal string on the wire, like `UserID`.
public struct ConversationID: NumericIdentifier {
    public let rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }
}

/// What kind of conversation: a 1:1 chat between friends, a group with lasting
/// membership, or a room that people enter and leave.
public enum ConversationKind: String, Codable, Sendable, CaseIterable {
    case user, group, room
}
