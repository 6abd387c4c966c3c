/// Who may see when a user was last online.
public enum LastSeenVisibility: String, Codable, Sendable, CaseIterable {
    case everyone
    case friends
    case nobody
}

/// A user's privacy choices about receipts, typing and presence (docs/protocol.md,
/// "Receipts and typing"); every one is on (`everyone`) until the user turns it off.
public struct PrivacySettings: Codable, Sendable, Equatable {
    /// Send read receipts. Off also hides others' read state from this user, as it is a
    /// trade: nobody learns what the other read unless both share it.
    public var readReceipts: Bool
    /// Let others see when this user is typing.
    public var typing: Bool
    /// Who may see when this user was last online.
    public var lastSeen: LastSeenVisibility

    public init(readReceipts: Bool = true, typing: Bool = true, lastSeen: LastSeenVisibility = .everyone) {
        self.readReceipts = readReceipts
        self.typing = typing
        self.lastSeen = lastSeen
    }
}
